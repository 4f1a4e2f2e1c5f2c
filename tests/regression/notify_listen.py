#!/usr/bin/env python3
"""notify_listen.py SOCKET TIMEOUT -- DAEMON [ARG...] [--at-ready CHECK...]

Plays systemd's part for a Type=notify daemon: binds the datagram socket
SOCKET, runs DAEMON with NOTIFY_SOCKET=SOCKET, and prints one line per
step, for a test to compare:

  READY <message> from=<main|pid N>    the first datagram (or TIMEOUT)
  CHECK rc=<rc> <first line>           CHECK run once, at once, after it
  STOPPING <message> from=...          the datagram queued when the daemon
                                       had exited after SIGTERM (so sent
                                       before it exited), or NONE
  MORE <n>                             datagrams beyond those two
  EXIT <status>                        the daemon's exit status

Every wait is bounded by TIMEOUT seconds.  The sender of each datagram is
read from its SCM_CREDENTIALS (SO_PASSCRED), as systemd does for
NotifyAccess=main.
"""
import os
import select
import signal
import socket
import struct
import subprocess
import sys


def recv(sock, pid, timeout):
    """One datagram within @timeout seconds: (text, 'main' or 'pid N')."""
    if not select.select([sock], [], [], timeout)[0]:
        return None, None
    msg, anc, _, _ = sock.recvmsg(4096, socket.CMSG_SPACE(12))
    sender = "unknown"
    for level, kind, data in anc:
        if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
            spid = struct.unpack("iII", data[:12])[0]
            sender = "main" if spid == pid else "pid %d" % spid
    return msg.decode(errors="replace"), sender


def wait_exit(proc, timeout):
    """The exit status, or None after @timeout seconds (then killed)."""
    try:
        return proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return None


def main():
    path, timeout = sys.argv[1], float(sys.argv[2])
    rest = sys.argv[4:]
    check = []
    if "--at-ready" in rest:
        i = rest.index("--at-ready")
        rest, check = rest[:i], rest[i + 1:]
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
    env = dict(os.environ, NOTIFY_SOCKET=path)
    proc = subprocess.Popen(rest, env=env, stdin=subprocess.DEVNULL)

    msg, sender = recv(sock, proc.pid, timeout)
    print("READY %s from=%s" % (msg, sender) if msg else "READY TIMEOUT", flush=True)
    if msg and check:
        res = subprocess.run(check, capture_output=True, text=True, timeout=timeout)
        first = (res.stdout + res.stderr).splitlines()
        print("CHECK rc=%d %s" % (res.returncode, first[0] if first else ""), flush=True)

    proc.send_signal(signal.SIGTERM)
    status = wait_exit(proc, timeout)
    # Exited: whatever it sent is queued by now; nothing can come after.
    msg, sender = recv(sock, proc.pid, 0)
    print("STOPPING %s from=%s" % (msg, sender) if msg else "STOPPING NONE", flush=True)
    more = 0
    while recv(sock, proc.pid, 0)[0] is not None:
        more += 1
    print("MORE %d" % more)
    print("EXIT %s" % ("TIMEOUT" if status is None else status))


if __name__ == "__main__":
    main()
