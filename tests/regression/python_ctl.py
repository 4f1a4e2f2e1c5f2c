#!/usr/bin/python3
"""python_ctl.py - test_python_ctl.sh's Python side: `import ltt` drives a
whole session of the test's session daemon (LTT_RUNDIR), and what it did
is checked against the daemon (lttctl list), the trace (babeltrace2) and
lttctl's own error sentences.  Prints TAP.

Environment: LTTCTL (the lttctl program), HELLO (examples/hello), TMP
(the test's directory), BT_TIMEOUT.
"""
import os
import subprocess
import sys

import ltt

# Under an ASan build python3 runs with the ASan runtime preloaded (lib.sh's
# python_env), which ASan programs, linking their own, refuse: the
# programs started from here (lttctl, the example, a daemon libltt-ctl
# spawns) get the test's environment back.
if "LTT_CHILD_ASAN_OPTIONS" in os.environ:
    os.environ.pop("LD_PRELOAD", None)
    os.environ["ASAN_OPTIONS"] = os.environ.pop("LTT_CHILD_ASAN_OPTIONS")

LTTCTL = os.environ["LTTCTL"]
HELLO = os.environ["HELLO"]
TMP = os.environ["TMP"]
TIMEOUT = int(os.environ.get("BT_TIMEOUT", "300"))
n = 0
failed = 0


def ok(cond, desc, diag=None):
    global n, failed
    n += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", n, desc))
    if not cond:
        failed += 1
        if diag is not None:
            for line in str(diag).splitlines():
                print("# " + line)
    sys.stdout.flush()


def is_(got, want, desc):
    ok(got == want, desc, "got:  %r\nwant: %r" % (got, want))


def child_env(**more):
    return dict(os.environ, **more)


def sh(*args):
    p = subprocess.run(args, capture_output=True, text=True, timeout=TIMEOUT,
                       env=child_env())
    return p.returncode, p.stdout, p.stderr


def lttctl_error(*args):
    """What lttctl prints after "Error: " for args (its first line on)."""
    rc, out, err = sh(LTTCTL, *args)
    return rc, err.split("Error: ", 1)[-1].rstrip("\n")


def raises(fn):
    try:
        fn()
    except (ltt.Error, ValueError, TypeError) as e:
        return e
    return None


def events(trace):
    rc, out, err = sh("babeltrace2", trace)
    return [l for l in out.splitlines() if " hello_world:" in l]



trace = os.path.join(TMP, "trace")

# --- a whole session from Python
s = ltt.create_session("py", output=trace)
is_((s.name, s.output, s.output_type, s.active, s.is_snapshot),
    ("py", trace, "local", False, False), "create_session: the session as the daemon made it")
s.enable_channel("c1", subbuf_size=65536, num_subbuf=8, switch_timer_us=200000)
s.enable_event("hello_world:*", channel="c1", loglevel="TRACE_DEBUG_LINE",
               exclude="hello_world:skip*")
s.enable_event("hello_world:my_second*", channel="c1", filter="intfield >= 0")
s.add_context("vpid", channel="c1")
rc, out, err = sh(LTTCTL, "list", "py")
ok(rc == 0 and "c1" in out and "65536" in out.replace(",", "") or "64 KiB" in out,
   "lttctl list shows the channel Python made", out)
ok("hello_world:*" in out and "intfield >= 0" in out and "hello_world:skip*" in out,
   "and its rules, with the filter and the exclusion", out)
ch = [c for c in s.channels if c.name == "c1"]
is_(len(ch), 1, "Session.channels has c1")
c = ch[0]
is_((c.domain, c.subbuf_size, c.num_subbuf, c.overwrite, c.switch_timer_us, c.enabled,
     c.buffer_type), ("user", 65536, 8, False, 200000, True, "per-uid"),
    "with the attributes given (and the domain's defaults)")
is_(c.allocation, "per-cpu", "Channel.allocation: per-cpu, the default")
s.enable_channel("c2", allocation="per-channel")
c2 = [c for c in s.channels if c.name == "c2"]
is_([c.allocation for c in c2], ["per-channel"], "enable_channel(allocation='per-channel'): "
    "one ring buffer for the channel, as Channel.allocation says")
rc, out, err = sh(LTTCTL, "list", "py")
ok("buffer allocation: per-channel" in out, "and as lttctl list says", out)
e = raises(lambda: s.enable_channel("c3", allocation="per-thread"))
ok(isinstance(e, ValueError), "an unknown allocation raises ValueError", repr(e))
rules = {r.pattern: r for r in s.rules}
is_(sorted(rules), ["hello_world:*", "hello_world:my_second*"], "Session.rules has both rules")
r = rules["hello_world:*"]
is_((r.domain, r.channel, r.loglevel_type, r.loglevel, r.exclusions, r.filter, r.enabled),
    ("user", "c1", "range", 13, ["hello_world:skip*"], None, True),
    "the first: its log level (a name given, its number back) and exclusion")
is_(rules["hello_world:my_second*"].filter, "intfield >= 0", "the second: its filter")
is_((r.type, r.location), ("tracepoint", None), "a tracepoint rule: its type, no location")
is_(sorted(ltt.EVENT_TYPES.values()),
    ["function", "probe", "syscall", "tracepoint", "userspace-probe"],
    "the rule types, probes included (ltt.EVENT_TYPES)")
for kw, dom in (({"userspace_probe": "/bin/true:main"}, "user"),
                ({"probe": "do_sys_open", "function": "vfs_read"}, "kernel")):
    try:
        s.enable_event("p1", domain=dom, **kw)
        ok(False, "enable_event(%s, domain=%s): refused" % (sorted(kw), dom))
    except ValueError as e:
        ok("p1" not in [x.pattern for x in s.rules],
           "enable_event(%s, domain=%s): refused (%s), no rule" % (sorted(kw), dom, e))

s.start()
is_(s.active, True, "start()")
is_(ltt.get_session("py").active, True, "get_session() says it is active")
rc, out, err = sh(HELLO, "100")
is_(rc, 0, "the example program ran under the session (hello 100)")
s.stop()
is_(ltt.get_session("py").active, False, "stop() returns once the session stopped")
ev = events(trace)
is_(len(ev), 152, "the trace has the program's 152 events (stop waited for them)")
ok(all("vpid = " in l for l in ev), "each with the vpid context Python added", ev[:1])
ch = [c for c in ltt.get_session("py").channels if c.name == "c1"][0]
is_((ch.discarded_events, ch.lost_packets), (0, 0), "nothing discarded or lost")

# rotate, then the next chunk
s.start()
sh(HELLO, "10")
archive = s.rotate()
ok(archive.startswith(os.path.join(trace, "archives")) and os.path.isdir(archive),
   "rotate() returns the archive's directory (%s)" % archive)
s.stop()
is_(len(events(archive)), 169, "the archive holds the 169 events recorded before it")

names = [x.name for x in ltt.list_sessions()]
is_(names, ["py"], "list_sessions()")
s.destroy()
is_([x.name for x in ltt.list_sessions()], [], "destroy()")

# --- a snapshot session
snap_out = os.path.join(TMP, "snaps")
sn = ltt.create_session("snap", snapshot=True, output=snap_out)
is_(sn.is_snapshot, True, "a snapshot session")
sn.enable_event("hello_world:*")
sn.start()
sh(HELLO, "20")
res = sn.snapshot()
ok(res["path"].startswith(snap_out) and res["packets"] > 0,
   "snapshot() writes one: %s (%d packets)" % (res["path"], res["packets"]))
is_(len(events(res["path"])), 32, "holding the program's 32 events")
sn.destroy()

# --- the trace format: CTF 2's metadata, a JSON text sequence (doc/ctf.md)
c2 = ltt.create_session("c2", output=os.path.join(TMP, "c2"), trace_format="ctf-2")
is_((c2.trace_format, s.trace_format), ("ctf-2", "ctf-1.8"),
    "create_session(trace_format='ctf-2'): a CTF 2 session; the default one is CTF 1.8")
c2.enable_event("hello_world:*")
c2.start()
sh(HELLO, "3")
c2.stop()
metas = [os.path.join(d, "metadata") for d, _, files in os.walk(os.path.join(TMP, "c2"))
         if "metadata" in files]
firsts = [open(m, "rb").read(1) for m in metas]
is_(firsts, [b"\x1e"], "its trace's metadata starts with a record separator")
c2.destroy()
e = raises(lambda: ltt.create_session("c3", trace_format="ctf-3"))
ok(isinstance(e, ValueError), "trace_format='ctf-3': ValueError before the daemon", repr(e))

# --- errors: ltt.Error with the code, its name and lttctl's sentence
s = ltt.create_session("dup", output=os.path.join(TMP, "dup"))
e = raises(lambda: ltt.create_session("dup"))
rc, want = lttctl_error("create", "dup")
ok(isinstance(e, ltt.Error) and e.code == 12 and e.name == "SESSION_EXISTS",
   "a second session 'dup' raises ltt.Error SESSION_EXISTS (12)", repr(e))
is_(str(e), want, "with lttctl's sentence")
e = raises(lambda: s.enable_channel("bad", subbuf_size=3000))
rc, want = lttctl_error("enable-channel", "-u", "bad", "-s", "dup", "--subbuf-size", "3000")
is_((e.name if isinstance(e, ltt.Error) else e, str(e)), ("SUBBUF_SIZE", want),
    "a sub-buffer size that is not a power of two: SUBBUF_SIZE, lttctl's sentence")
e = raises(lambda: s.enable_event("x", filter="intfield =="))
rc, want = lttctl_error("enable-event", "-u", "x", "-s", "dup", "--filter", "intfield ==")
is_((e.name if isinstance(e, ltt.Error) else e, str(e)), ("FILTER", want),
    "a filter that does not parse: FILTER, with lttctl's caret lines")
e = raises(lambda: ltt.get_session("nope"))
is_(e.name if isinstance(e, ltt.Error) else e, "SESSION_NOT_FOUND", "an unknown session: SESSION_NOT_FOUND")
none = os.path.join(TMP, "none")
e = raises(lambda: ltt.list_sessions(rundir=none))
p = subprocess.run([LTTCTL, "list"], capture_output=True, text=True,
                   env=child_env(LTT_RUNDIR=none), timeout=TIMEOUT)
is_((e.name if isinstance(e, ltt.Error) else e, str(e)),
    ("SESSIOND_NOT_RUNNING", p.stderr.split("Error: ", 1)[-1].rstrip("\n")),
    "no daemon in a run directory: SESSIOND_NOT_RUNNING, lttctl's sentence")
e = raises(lambda: s.enable_event("x", domain="jul"))
ok(isinstance(e, ValueError) and "'user', 'kernel' or 'python'" in str(e),
   "a domain ltt does not have: ValueError, saying which there are", repr(e))
e = raises(lambda: s.enable_event("x", loglevel="LOUD"))
is_(e.name if isinstance(e, ltt.Error) else e, "LOGLEVEL", "an unknown log level: LOGLEVEL")
e = raises(lambda: ltt.create_session("x", output="/tmp/a", url="net://localhost"))
ok(isinstance(e, ValueError), "output and url together: ValueError", repr(e))
is_(sorted(r.pattern for r in ltt.get_session("dup").rules), [],
    "the refused calls changed nothing")
s.destroy()

# --- create_session starts a personal daemon where none runs, as lttctl create
fresh = os.path.join(TMP, "fresh")
os.makedirs(fresh)
f = ltt.create_session("f", output=os.path.join(TMP, "ftrace"), rundir=fresh)
ok(os.path.exists(os.path.join(fresh, "sessiond.pid")),
   "create_session(rundir=) started a session daemon there")
is_([x.name for x in ltt.list_sessions(rundir=fresh)], ["f"], "which holds the session")
f.destroy()
print("1..%d" % n)
sys.exit(1 if failed else 0)
