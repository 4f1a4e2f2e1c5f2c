#!/usr/bin/env python3
# bt_expect.py QUERY FILE...: what doc/sql.md's query QUERY answers, as
# computed here from babeltrace2's text of the traces (babeltrace2
# --clock-seconds: "[SECONDS.NANOSECONDS] (+DELTA) HOST NAME: ..."), in
# SQLite's output form ('|' between columns).
#   per-second   host|second|events, by host and second
#   top-syscalls procname|syscall|calls, the 10 most made
#   latency      calls|p50|p90|p99|longest of openat, entry to exit
#   slowest      tid|request|ns, the 5 slowest ltt_test:seq -> ltt_test:types
import collections
import re
import sys

LINE = re.compile(r'^\[(\d+)\.(\d{9})\] \(\S+\) (\S+) (\S+): (.*)$')


def events(files):
    for path in files:
        with open(path) as f:
            for line in f:
                m = LINE.match(line.rstrip("\n"))
                if m:
                    yield int(m.group(1)) * 10**9 + int(m.group(2)), m.group(3), m.group(4), m.group(5)


# babeltrace2's text escapes a string's quote, apostrophe, backslash and
# question mark with a backslash, and its control characters as C does.
ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t",
           "v": "\v", "0": "\0"}


def unescape(s):
    return re.sub(r'\\(x[0-9a-fA-F]{2}|.)',
                  lambda m: chr(int(m.group(1)[1:], 16)) if len(m.group(1)) == 3
                  else ESCAPES.get(m.group(1), m.group(1)), s)


def field(rest, name):
    m = re.search(r'\b' + name + r' = (?:"((?:[^"\\]|\\.)*)"|(-?\d+))', rest)
    if m is None:
        return None
    return m.group(2) if m.group(1) is None else unescape(m.group(1))


def per_second(files):
    n = collections.Counter((host, ts // 10**9) for ts, host, _, _ in events(files))
    return ["%s|%d|%d" % (h, s, c) for (h, s), c in sorted(n.items())]


def top_syscalls(files):
    n = collections.Counter((field(rest, "procname"), name[len("syscall_entry_"):])
                            for _, _, name, rest in events(files) if name.startswith("syscall_entry_"))
    top = sorted(n.items(), key=lambda kv: (-kv[1], kv[0][0], kv[0][1]))[:10]
    return ["%s|%s|%d" % (p, s, c) for (p, s), c in top]


def latency(files):
    steps = collections.defaultdict(list)
    for ts, _, name, rest in events(files):
        if name in ("syscall_entry_openat", "syscall_exit_openat"):
            steps[field(rest, "tid")].append((ts, name))
    ns = []
    for s in steps.values():
        s.sort()
        for a, b in zip(s, s[1:]):
            if a[1] == "syscall_entry_openat" and b[1] == "syscall_exit_openat":
                ns.append(b[0] - a[0])
    ns.sort()
    n = len(ns)
    return ["%d|%d|%d|%d|%d" % (n, ns[n * 50 // 100], ns[n * 90 // 100], ns[n * 99 // 100], ns[-1])]


def slowest(files):
    begin, req = {}, []
    for ts, _, name, rest in events(files):
        if name == "ltt_test:seq":
            begin[(field(rest, "vtid"), int(field(rest, "seq")))] = ts
        elif name == "ltt_test:types":
            key = (field(rest, "vtid"), int(field(rest, "u32")) - 4000000000)
            if key in begin:
                req.append((ts - begin[key], int(key[0]), key[1]))
    req.sort(key=lambda r: (-r[0], r[1], r[2]))
    return ["%d|%d|%d" % (t, r, ns) for ns, t, r in req[:5]]


QUERIES = {"per-second": per_second, "top-syscalls": top_syscalls, "latency": latency,
           "slowest": slowest}
print("\n".join(QUERIES[sys.argv[1]](sys.argv[2:])))
