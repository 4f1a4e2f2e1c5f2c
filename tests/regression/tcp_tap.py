#!/usr/bin/env python3
"""tcp_tap.py CAPTURE PORT...: a loopback tap for the TLS tests.

For each PORT, listen on 127.0.0.1 (a free port), forward every
connection to 127.0.0.1:PORT, and append every byte that passes, both
ways, to the file CAPTURE: what a capture of the loopback would see.
Prints its pid and the listening ports on one line once all listen,
then serves until killed.
"""
import os
import socket
import sys
import threading

lock = threading.Lock()


def pump(src, dst, cap):
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            with lock:
                cap.write(data)
            dst.sendall(data)
    except OSError:
        pass
    finally:
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def serve(listener, port, cap):
    while True:
        client, _ = listener.accept()
        try:
            upstream = socket.create_connection(("127.0.0.1", port))
        except OSError:
            client.close()
            continue
        for a, b in ((client, upstream), (upstream, client)):
            threading.Thread(target=pump, args=(a, b, cap), daemon=True).start()


def main():
    cap = open(sys.argv[1], "ab", buffering=0)
    listeners = []
    for port in sys.argv[2:]:
        ls = socket.socket()
        ls.bind(("127.0.0.1", 0))
        ls.listen(16)
        listeners.append((ls, int(port)))
    print(os.getpid(), " ".join(str(ls.getsockname()[1]) for ls, _ in listeners), flush=True)
    threads = [threading.Thread(target=serve, args=(ls, p, cap), daemon=True)
               for ls, p in listeners]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


if __name__ == "__main__":
    main()
