# SPDX-License-Identifier: LGPL-2.1-only
"""ltt's control library (libltt-ctl) from Python.

Drive ltt's session daemon as lttctl does::

    import ltt

    s = ltt.create_session("web", output="/tmp/web-trace")
    s.enable_event("myapp:*")                     # user space, channel0
    s.enable_event("sched_switch", domain="kernel")
    s.add_context("vpid")
    s.start()
    ...
    s.stop()                                      # waits until written
    s.destroy()

Every call connects to the session daemon of the caller (the root
daemon for root and members of the tracing group, else a personal one
in $LTT_RUNDIR or the default run directory; rundir= names another),
does one command and disconnects.  create_session() starts a personal
daemon where none runs, as `lttctl create` does.

A failure raises ltt.Error: its .code is ltt's public error code (what
`lttctl --mi xml` reports), .name the code's stable name
("SESSION_EXISTS"), and str(error) the sentence lttctl prints after
"Error: ".  Arguments of the wrong kind raise TypeError or ValueError
before anything reaches the daemon.
"""

import os

from ltt import _ltt

__all__ = ["Error", "Session", "Channel", "EventRule", "create_session",
           "list_sessions", "get_session"]

_DOMAINS = {"user": _ltt.DOMAIN_USER, "kernel": _ltt.DOMAIN_KERNEL,
            "python": _ltt.DOMAIN_PYTHON}
# the python domain records in this user-space channel (lttctl's -p)
_PYTHON_CHANNEL = "lttng_python_channel"
_DOMAIN_NAMES = {v: k for k, v in _DOMAINS.items()}
_OUTPUT_NAMES = {_ltt.OUTPUT_NONE: "none", _ltt.OUTPUT_LOCAL: "local",
                 _ltt.OUTPUT_NET: "net"}
_BUFFERS = {None: _ltt.BUFFER_DEFAULT, "per-uid": _ltt.BUFFER_PER_UID,
            "per-pid": _ltt.BUFFER_PER_PID, "global": _ltt.BUFFER_GLOBAL}
_BUFFER_NAMES = {v: k for k, v in _BUFFERS.items() if k}
# enum ltt_buffer_allocation
_ALLOCATIONS = {"per-cpu": 0, "per-channel": 1}
_ALLOCATION_NAMES = {v: k for k, v in _ALLOCATIONS.items()}
# enum ltt_trace_format, as lttctl create -F names them
_FORMATS = {"default": 0, "ctf-1.8": 1, "ctf-2": 2}
_FORMAT_NAMES = {v: k for k, v in _FORMATS.items() if v}
_LOGLEVEL_TYPES = {_ltt.LOGLEVEL_ALL: "all", _ltt.LOGLEVEL_RANGE: "range",
                   _ltt.LOGLEVEL_SINGLE: "single"}
# a rule's type, as lttctl list names it
EVENT_TYPES = {_ltt.EVENT_TRACEPOINT: "tracepoint", _ltt.EVENT_SYSCALL: "syscall",
               _ltt.EVENT_KPROBE: "probe", _ltt.EVENT_FUNCTION: "function",
               _ltt.EVENT_UPROBE: "userspace-probe"}
# the errors of reaching the daemon: lttctl says which daemon
_CONNECTION_ERRORS = ("SESSIOND_NOT_RUNNING", "SESSIOND_PERM", "SESSIOND_IO",
                      "VERSION_MISMATCH", "SESSIOND_SPAWN", "SESSIOND_TIMEOUT")


class Error(Exception):
    """A failure of ltt's control library.

    code: ltt's public error code (an int, enum ltt_error of ltt-error.h);
    name: its stable name ("SESSION_NOT_FOUND");
    message: the sentence lttctl prints after "Error: " (also str(self));
    detail: the daemon's extra lines (a filter's caret), or "".
    """

    def __init__(self, code, message, detail=""):
        self.code = code
        self.name = _ltt.strerror(code)[0]
        self.message = message
        self.detail = detail
        super().__init__(message + ("\n" + detail if detail else ""))


def _error(code, context, detail=""):
    """Error(code) with lttctl's sentence: "CONTEXT: what the code says"."""
    text = _ltt.strerror(code)[1]
    return Error(code, "%s: %s" % (context, text) if context else text, detail)


def _call(context, rundir, fn, *args, **kw):
    """fn(*args, **kw) of _ltt, its Failure raised as Error(context)."""
    try:
        return fn(*args, rundir=rundir, **kw)
    except _ltt.Failure as f:
        code, detail = f.args
        if _ltt.strerror(code)[0] in _CONNECTION_ERRORS:
            context = "session daemon (run directory %s)" % (
                rundir or _ltt.default_rundir())
        raise _error(code, context, detail) from None


def _domain(domain):
    try:
        return _DOMAINS[domain]
    except (KeyError, TypeError):
        raise ValueError("unknown domain %r: use 'user', 'kernel' or 'python'"
                         % (domain,)) from None


def _loglevel(level, domain=_ltt.DOMAIN_USER):
    """A log level given as a number or a name ("WARNING", "TRACE_INFO";
    in the python domain Python's: "WARNING" is 30)."""
    if isinstance(level, bool) or not isinstance(level, (int, str)):
        raise TypeError("a log level is a number or a name, not %r" % (level,))
    if isinstance(level, int):
        return level
    try:
        return _ltt.loglevel_parse(level, domain)
    except _ltt.Failure as f:
        raise _error(f.args[0], "log level '%s'" % level) from None


def _check_filter(text):
    """Refuse a filter that does not parse, as lttctl does: "invalid
    filter: WHY", the expression and a caret under the fault as detail."""
    try:
        _ltt.filter_check(text)
    except _ltt.Failure as f:
        code, msg = f.args
        if _ltt.strerror(code)[0] != "FILTER":
            raise _error(code, "filter") from None
        why, _, lines = msg.partition("\n")
        raise Error(code, "invalid filter: " + why, lines.rstrip("\n")) from None


class Channel:
    """A channel of a session (Session.channels): its attributes, state and
    losses, as `lttctl list SESSION` shows them."""

    def __init__(self, d):
        self.name = d["name"]
        self.domain = _DOMAIN_NAMES.get(d["domain"], str(d["domain"]))
        self.enabled = d["enabled"]
        self.subbuf_size = d["subbuf_size"]
        self.num_subbuf = d["num_subbuf"]
        self.overwrite = d["overwrite"]
        self.switch_timer_us = d["switch_timer_us"]
        self.read_timer_us = d["read_timer_us"]
        self.tracefile_size = d["tracefile_size"]
        self.tracefile_count = d["tracefile_count"]
        self.buffer_type = _BUFFER_NAMES.get(d["buffer_type"], "default")
        self.fsync = d["fsync"]
        self.allocation = _ALLOCATION_NAMES.get(d["allocation"], str(d["allocation"]))
        self.discarded_events = d["discarded_events"]
        self.lost_packets = d["lost_packets"]
        self.output_error = d["output_error"]
        self.classes_refused = d["classes_refused"]

    def __repr__(self):
        return "<ltt.Channel %s/%s%s>" % (self.domain, self.name,
                                          "" if self.enabled else " disabled")


def _event_type(domain, syscall, probe, function, userspace_probe):
    """The type and location of enable_event's rule."""
    given = [(t, loc) for t, loc in ((_ltt.EVENT_SYSCALL, syscall or None),
                                     (_ltt.EVENT_KPROBE, probe),
                                     (_ltt.EVENT_FUNCTION, function),
                                     (_ltt.EVENT_UPROBE, userspace_probe))
             if loc is not None]
    if len(given) > 1:
        raise ValueError("give one of syscall, probe, function and userspace_probe")
    if not given:
        return _ltt.EVENT_TRACEPOINT, None
    etype, loc = given[0]
    if etype == _ltt.EVENT_SYSCALL:
        return etype, None      # the daemon says where system calls are
    if domain != "kernel":
        raise ValueError("%s rules are kernel rules: give domain=\"kernel\""
                         % EVENT_TYPES[etype])
    return etype, loc


class EventRule:
    """An event rule of a session (Session.rules)."""

    def __init__(self, d):
        self.pattern = d["pattern"]
        self.domain = _DOMAIN_NAMES.get(d["domain"], str(d["domain"]))
        self.channel = d["channel"]
        self.loglevel_type = _LOGLEVEL_TYPES.get(d["loglevel_type"], "all")
        self.loglevel = d["loglevel"] if self.loglevel_type != "all" else None
        self.syscall = d["type"] == _ltt.EVENT_SYSCALL
        # "tracepoint", "syscall", "probe", "function" or "userspace-probe"
        self.type = EVENT_TYPES.get(d["type"], str(d["type"]))
        # a probe's location as lttctl enable-event takes it, else None
        self.location = d.get("location")
        self.filter = d["filter"]
        self.exclusions = d["exclusions"].split(",") if d["exclusions"] else []
        self.enabled = d["enabled"]

    def __repr__(self):
        return "<ltt.EventRule %s/%s:%s>" % (self.domain, self.channel,
                                             self.pattern)


class Session:
    """A tracing session of the session daemon.

    Attributes (as the daemon said when the object was made; refresh()
    reads them again): name, id, uuid, uid (its owner), active, is_snapshot,
    live_timer_us, output_type ("local", "net" or "none"), output (the
    directory or URL), creation_time (seconds since the Epoch),
    trace_format ("ctf-1.8" or "ctf-2"; None from a daemon before 1.38).
    channels and rules are read from the daemon when first used.
    """

    def __init__(self, info, rundir=None):
        self._rundir = rundir
        self._set(info)

    def _set(self, info):
        self.name = info["name"]
        self.id = info["id"]
        self.uuid = info["uuid"]
        self.uid = info["uid"]
        self.active = info["active"]
        self.is_snapshot = info["snapshot"]
        self.live_timer_us = info["live_timer_us"]
        self.output_type = _OUTPUT_NAMES.get(info["output_type"], "none")
        self.output = info["output"]
        self.creation_time = info["creation_time"]
        self.trace_format = _FORMAT_NAMES.get(info["trace_format"])
        self._detail = info if "channels" in info else None

    def _ctx(self):
        return "session '%s'" % self.name

    def refresh(self):
        """Read the session's state, channels and rules again."""
        self._set(_call(self._ctx(), self._rundir, _ltt.get_session, self.name))
        return self

    def _details(self):
        if self._detail is None:
            self.refresh()
        return self._detail

    @property
    def channels(self):
        """The session's channels (Channel), both domains."""
        return [Channel(c) for c in self._details()["channels"]]

    @property
    def rules(self):
        """The session's event rules (EventRule), both domains."""
        return [EventRule(r) for r in self._details()["rules"]]

    def _changed(self):
        self._detail = None

    def enable_channel(self, name, domain="user", subbuf_size=None,
                       num_subbuf=None, overwrite=False, switch_timer_us=None,
                       read_timer_us=None, tracefile_size=0, tracefile_count=0,
                       buffer_type=None, fsync=False, allocation="per-cpu"):
        """Create (or enable again) a channel, as `lttctl enable-channel`.

        None: the domain's default.  buffer_type: "per-uid" or "per-pid"
        (user space), "global" (kernel).  allocation: "per-cpu", or
        "per-channel" (user space: one ring buffer written from every CPU).
        """
        if allocation not in _ALLOCATIONS:
            raise ValueError("unknown allocation %r: use 'per-cpu' or "
                             "'per-channel'" % (allocation,))
        if buffer_type not in _BUFFERS:
            raise ValueError("unknown buffer_type %r: use 'per-uid', 'per-pid' "
                             "or 'global'" % (buffer_type,))
        _call("channel '%s' of %s" % (name, self._ctx()), self._rundir,
              _ltt.enable_channel, self.name, _domain(domain), name,
              subbuf_size=subbuf_size or 0, num_subbuf=num_subbuf or 0,
              overwrite=overwrite, switch_timer_us=switch_timer_us or 0,
              read_timer_us=read_timer_us or 0, tracefile_size=tracefile_size,
              tracefile_count=tracefile_count, buffer_type=_BUFFERS[buffer_type],
              fsync=fsync, allocation=_ALLOCATIONS[allocation])
        self._changed()

    def enable_event(self, pattern, domain="user", loglevel=None,
                     loglevel_only=None, filter=None, exclude=None,
                     channel=None, syscall=False, probe=None, function=None,
                     userspace_probe=None):
        """Enable an event rule, as `lttctl enable-event`.

        pattern: an event name or a '*' glob ("myapp:*"); in the python
        domain, a logger name or glob ("qa.*", records of programs that
        import ltt.agent).  loglevel: this level and more severe;
        loglevel_only: exactly this level (a number or a name: "WARNING",
        "TRACE_INFO"; Python's "CRITICAL" .. "DEBUG" in the python
        domain).  filter: an expression of lttctl-enable-event(1)'s
        language.  exclude: names or patterns the rule leaves out (a list
        or one string).  channel: None for channel0 (the python domain's:
        lttng_python_channel, its only one).  syscall: kernel system calls
        (domain="kernel").  probe, function, userspace_probe: a probe rule
        (domain="kernel", pattern the event's name) at this location, as
        `lttctl enable-event --probe`, `--function`, `--userspace-probe`
        take it ("do_sys_open+4", "elf:/bin/prog:main",
        "sdt:/bin/prog:provider:name").
        """
        if loglevel is not None and loglevel_only is not None:
            raise ValueError("give loglevel or loglevel_only, not both")
        etype, location = _event_type(domain, syscall, probe, function, userspace_probe)
        if isinstance(exclude, str):
            exclude = [exclude]
        dom = _domain(domain)
        ll_type, ll = _ltt.LOGLEVEL_ALL, 0
        if loglevel is not None:
            ll_type, ll = _ltt.LOGLEVEL_RANGE, _loglevel(loglevel, dom)
        elif loglevel_only is not None:
            ll_type, ll = _ltt.LOGLEVEL_SINGLE, _loglevel(loglevel_only, dom)
        if filter is not None:
            _check_filter(filter)
        default = _PYTHON_CHANNEL if dom == _ltt.DOMAIN_PYTHON else "channel0"
        _call("%sevent rule '%s' in channel '%s' of %s"
              % ("system call " if syscall else "", pattern,
                 channel or default, self._ctx()), self._rundir,
              _ltt.enable_event, self.name, dom, channel, pattern,
              loglevel_type=ll_type, loglevel=ll,
              type=etype, filter=filter,
              exclusions=",".join(exclude) if exclude else None, location=location)
        self._changed()

    def disable_event(self, pattern, domain="user", channel=None):
        """Disable the event rules of pattern, as `lttctl disable-event`."""
        dom = _domain(domain)
        default = _PYTHON_CHANNEL if dom == _ltt.DOMAIN_PYTHON else "channel0"
        _call("event rule '%s' in channel '%s' of %s"
              % (pattern, channel or default, self._ctx()), self._rundir,
              _ltt.disable_event, self.name, dom, channel, pattern)
        self._changed()

    def add_context(self, context, domain="user", channel=None):
        """Add a context field to the events of a channel (None: every
        channel of the domain), as `lttctl add-context -t`: "vpid",
        "procname", "perf:thread:instructions", ..."""
        _call("context %s, %s" % (context, self._ctx()), self._rundir,
              _ltt.add_context, self.name, _domain(domain), channel, context)
        self._changed()

    def start(self):
        """Start tracing."""
        _call(self._ctx(), self._rundir, _ltt.start_session, self.name)
        self.active = True

    def stop(self, wait=True):
        """Stop tracing; with wait, return once the trace is written."""
        _call(self._ctx(), self._rundir, _ltt.stop_session, self.name,
              wait=wait)
        self.active = False

    def rotate(self):
        """Archive the trace written so far; returns the archive's path."""
        return _call(self._ctx(), self._rundir, _ltt.rotate_session, self.name)

    def snapshot(self, output=None, max_size=0):
        """Record a snapshot of a snapshot session's buffers, to the
        session's output or to the directory output; returns a dict:
        path, packets, bytes, packets_dropped."""
        out = os.path.abspath(output) if output else ""
        return _call(self._ctx(), self._rundir, _ltt.snapshot_record,
                     self.name, _ltt.OUTPUT_LOCAL if out else _ltt.OUTPUT_NONE,
                     out, max_size)

    def clear(self):
        """Discard what the session recorded so far."""
        _call(self._ctx(), self._rundir, _ltt.clear_session, self.name)

    def destroy(self):
        """Destroy the session (its trace is written first)."""
        _call(self._ctx(), self._rundir, _ltt.destroy_session, self.name)

    def __repr__(self):
        return "<ltt.Session %s%s>" % (self.name,
                                       " active" if self.active else "")


def create_session(name=None, output=None, url=None, snapshot=False,
                   live=None, no_output=False, rundir=None, trace_format="default"):
    """Create a session, as `lttctl create`, and return it (Session).

    name: None for an automatic one.  output: the trace's directory
    (None: ~/ltt-traces/NAME-DATE); url: a relay daemon's net://HOST
    URL instead; no_output: record nothing to disk (snapshot sessions
    with outputs added later).  snapshot: a snapshot session.  live: a
    live session (True, or the live timer period in microseconds), to
    url or the local relay daemon.  trace_format: "ctf-1.8", "ctf-2"
    (babeltrace2 2.1 and later read it; local outputs only) or "default"
    (the daemon's, lttctl create -F).
    """
    if trace_format not in _FORMATS:
        raise ValueError("trace_format: one of %s" % ", ".join(sorted(_FORMATS)))
    if sum(x is not None and x is not False for x in (output, url, no_output)) > 1:
        raise ValueError("give one of output, url and no_output")
    if live is True:
        live = _ltt.DEFAULT_LIVE_TIMER_US
    if live is not None and live is not False:
        if isinstance(live, bool) or not isinstance(live, int) or \
                live < _ltt.MIN_LIVE_TIMER_US or live > 0xffffffff:
            raise ValueError("live: True, or the live timer period in "
                             "microseconds from %d to %d"
                             % (_ltt.MIN_LIVE_TIMER_US, 0xffffffff))
        if output is not None or no_output:
            raise ValueError("a live session streams to a relay daemon: "
                             "give url, not output")
        url = url or _ltt.DEFAULT_LIVE_URL
    else:
        live = 0
    if no_output:
        otype, out = _ltt.OUTPUT_NONE, ""
    elif output is not None:
        otype, out = _ltt.OUTPUT_LOCAL, os.path.abspath(output)
    elif url is not None and url.startswith("file://"):
        otype, out = _ltt.OUTPUT_LOCAL, url[len("file://"):]
    elif url is not None:
        otype, out = _ltt.OUTPUT_NET, url
    else:
        otype, out = _ltt.OUTPUT_LOCAL, ""
    info = _call("session '%s'" % (name or ""), rundir, _ltt.create_session,
                 name or "", otype, out, snapshot, live,
                 trace_format=_FORMATS[trace_format])
    return Session(info, rundir)


def list_sessions(rundir=None):
    """The sessions the caller may see (Session objects)."""
    return [Session(i, rundir)
            for i in _call("listing the sessions", rundir, _ltt.list_sessions)]


def get_session(name, rundir=None):
    """The session name (Session), with its channels and rules."""
    return Session(_call("session '%s'" % name, rundir, _ltt.get_session, name),
                   rundir)
