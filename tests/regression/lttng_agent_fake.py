# A fake LTTng agent for test_lttng_agent_limits.sh: opens CONNS
# connections to the daemon's agent port, registers each (LTTng's agent
# protocol 2.0, domain DOMAIN: 3 JUL, 5 python), answers ENABLE and
# DISABLE with success and LIST with NAMES logger names, each NAME-LEN
# characters long ("PREFIX" then x's then ".N"), and prints, once every
# connection was told REGISTRATION_DONE or was closed (30 s at most):
#   registered R closed C
# It then serves its connections until its stdin closes.  Each
# registration gives its own pid, or $AGENT_PID when set (a claim).
# $AGENT_REFUSE=NAME-PREFIX:STATUS[,...] answers an ENABLE of a logger
# whose name starts with NAME-PREFIX with STATUS (LTTng's agents: 2
# invalid, 3 unknown name), or closes the connection for STATUS "close";
# $AGENT_REFUSE_DISABLE likewise for DISABLE.  STATUS "hold" answers
# with success only once a line comes on stdin, after printing
#   held LOGGER
#   usage: lttng_agent_fake.py PORT DOMAIN CONNS NAMES NAME-LEN PREFIX
import os
import select
import socket
import struct
import sys
import time

port, domain, conns, names, name_len = (int(a) for a in sys.argv[1:6])
prefix = sys.argv[6]
claimed = int(os.environ.get("AGENT_PID", os.getpid()))
refusals = {cmd: [r.rpartition(":")[::2] for r in os.environ.get(var, "").split(",") if r]
            for cmd, var in ((2, "AGENT_REFUSE"), (3, "AGENT_REFUSE_DISABLE"))}


def refusal(cmd, logger):
    """The status that refuses @cmd (ENABLE, DISABLE) of @logger, None if none."""
    for prefix, status in refusals.get(cmd, []):
        if logger.startswith(prefix):
            return status
    return None



def name(i):
    tail = ".%05d" % i
    return (prefix + "x" * max(0, name_len - len(prefix) - len(tail)) + tail).encode()


listing = b"".join(name(i) + b"\0" for i in range(names))
list_reply = struct.pack(">III", 1, len(listing), names) + listing

socks = {}
for _ in range(conns):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(struct.pack(">IIII", domain, claimed, 2, 0))
    socks[s] = b""
registered = closed = 0
pending = set(socks)


def serve(s):
    """Read what @s sent; False once the daemon closed it."""
    global registered
    data = s.recv(65536)
    if not data:
        return False
    buf = socks[s] + data
    while len(buf) >= 16:
        size, cmd, _ = struct.unpack(">QII", buf[:16])
        if len(buf) < 16 + size:
            break
        at = {2: 24, 3: 16}.get(cmd)
        logger = buf[at:at + 256].split(b"\0")[0].decode() if at else ""
        buf = buf[16 + size:]
        refused = refusal(cmd, logger)
        if refused == "close":
            return False
        if refused == "hold":
            held.append(s)
            print("held %s" % logger, flush=True)
            continue
        if cmd == 1:
            s.sendall(list_reply)
        elif cmd in (2, 3):
            s.sendall(struct.pack(">I", int(refused) if refused else 1))
        elif cmd == 4 and s in pending:
            pending.discard(s)
            registered += 1
    socks[s] = buf
    return True


until = time.monotonic() + 30
reported = False
held = []
while True:
    if not reported and (not pending or time.monotonic() > until):
        print("registered %d closed %d" % (registered, closed), flush=True)
        reported = True
    r, _, _ = select.select(list(socks) + [sys.stdin], [], [], 1)
    if sys.stdin in r and not sys.stdin.readline():
        break
    if sys.stdin in r:   # a line: the held answers now
        for s in held:
            s.sendall(struct.pack(">I", 1))
        held = []
    for s in r:
        if s is sys.stdin:
            continue
        try:
            alive = serve(s)
        except OSError:
            alive = False
        if not alive:
            if s in pending:
                pending.discard(s)
                closed += 1
            del socks[s]
            s.close()
