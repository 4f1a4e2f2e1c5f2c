#!/usr/bin/python3
# lttng_wire.py SOCKET CASE: one request on LTTng 2.13's client socket,
# as no LTTng client would send it, then prints the reply's return code
# (LTTng's error code) or "closed" when the daemon closed the connection
# without one.  CASE: short (half of the fixed request, then the
# writer's end shut), unknown (command 99), huge (ENABLE_CHANNEL
# announcing a 16 MiB variable part), badname (a session name without
# its NUL), bigname (CREATE_SESSION_EXT whose descriptor's name length
# runs past its bytes), fdlate (LIST_SESSIONS announcing a descriptor,
# sent on its byte only after 0.3 s without a reply: prints "waited"
# then the code when the daemon waited for it before answering).
# lttng_wire.py SOCKET gen215|gen216 LIB: LIST_SESSIONS as a client of
# LTTng 2.15 or 2.16 sends it, having loaded LIB (a liblttng-ctl.so.0 of
# that version, as the daemon tells them), then prints the reply's code
# and its header's size (24, or 2.15's and 2.16's 20) when its sizes add up.
import ctypes
import socket
import struct
import sys

MSG_SIZE = 13156  # struct lttcomm_session_msg
OFF_UNION = 4688
OFF_FD_COUNT = 13152


def request(cmd, session=b"s", union=b""):
    msg = bytearray(MSG_SIZE)
    struct.pack_into("<I", msg, 0, cmd)
    msg[4:4 + len(session)] = session
    msg[OFF_UNION:OFF_UNION + len(union)] = union
    return bytes(msg)


def main():
    path, case = sys.argv[1], sys.argv[2]
    extra = b""
    if case == "short":
        data = request(13)[:MSG_SIZE // 2]
    elif case == "unknown":
        data = request(99)
    elif case == "huge":
        data = request(5, union=struct.pack("<I", 16 << 20))
    elif case == "badname":
        data = request(16, session=b"x" * 255)
    elif case in ("gen215", "gen216"):
        ctypes.CDLL(sys.argv[3])
        data = request(13 if case == "gen215" else 11, session=b"")
    elif case == "fdlate":
        data = bytearray(request(13))
        struct.pack_into("<I", data, OFF_FD_COUNT, 1)
        data = bytes(data)
    else:  # bigname: a regular descriptor announcing a 200-byte name, 3 sent
        desc = struct.pack("<BBIB", 1, 0, 200, 0) + b"ab\0"
        data = request(49, union=struct.pack("<HQ", 0, len(desc)))
        extra = desc
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(10)
    s.connect(path)
    s.sendall(data + extra)
    if case == "short":
        s.shutdown(socket.SHUT_WR)
    if case == "fdlate":
        s.settimeout(0.3)
        try:
            print("answered early" if s.recv(24) else "closed early")
            return
        except socket.timeout:
            print("waited")
        s.settimeout(10)
        with open("/dev/null", "rb") as f:
            socket.send_fds(s, [b"\0"], [f.fileno()])
    if case.startswith("gen"):
        reply = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            reply += chunk
        for hdr in (20, 24):
            if len(reply) >= hdr:
                sizes = struct.unpack_from("<III", reply, hdr - 12)
                if hdr + sizes[0] + sizes[1] == len(reply):
                    print(struct.unpack_from("<I", reply, 4)[0], hdr)
                    return
        print("malformed", len(reply))
        return
    reply = b""
    try:
        while len(reply) < 24:
            chunk = s.recv(24 - len(reply))
            if not chunk:
                break
            reply += chunk
    except ConnectionResetError:
        pass
    if len(reply) < 24:
        print("closed")
    else:
        print(struct.unpack_from("<I", reply, 4)[0])


main()
