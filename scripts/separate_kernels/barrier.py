#!/usr/bin/env python3
"""The start signal of scripts/separate_kernels.sh's guests, over their own links.

    barrier.py serve PORT N TIMEOUT   accept N connections, then send each "go" at once and
                                      print this guest's uptime at that moment
    barrier.py wait HOST PORT TIMEOUT connect (retrying until TIMEOUT s), wait for "go",
                                      print this guest's uptime when it came

Each guest has its own clock; the uptimes let scripts/separate_kernels/merge.py put every
guest's samples on the router's. Exit status 1 when TIMEOUT passes first.
"""
import socket
import sys
import time


def uptime():
    with open("/proc/uptime") as f:
        return f.read().split()[0]


def serve(port, n, timeout):
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("0.0.0.0", port))
    srv.listen(n)
    srv.settimeout(timeout)
    conns = [srv.accept()[0] for _ in range(n)]
    for c in conns:
        c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    now = uptime()
    for c in conns:
        c.sendall(b"go\n")
    for c in conns:
        c.close()
    print(now)


def wait(host, port, timeout):
    end = time.monotonic() + timeout
    while True:
        try:
            s = socket.create_connection((host, port), timeout=max(end - time.monotonic(), 0.1))
            break
        except OSError:
            if time.monotonic() > end:
                raise
            time.sleep(0.2)
    s.settimeout(max(end - time.monotonic(), 0.1))
    got = s.recv(16)
    now = uptime()
    if not got.startswith(b"go"):
        raise OSError(f"barrier: got {got!r}, not go")
    print(now)


def main(argv):
    try:
        if len(argv) == 4 and argv[0] == "serve":
            serve(int(argv[1]), int(argv[2]), float(argv[3]))
        elif len(argv) == 4 and argv[0] == "wait":
            wait(argv[1], int(argv[2]), float(argv[3]))
        else:
            print(__doc__, file=sys.stderr)
            return 2
    except OSError as e:
        print(f"barrier.py: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
