# SPDX-License-Identifier: LGPL-2.1-only
"""ltt's agent for Python's logging module: ``import ltt.agent``.

Importing this module is all a program does.  From then on each record
of Python's logging module whose logger a session enables in the python
domain (``lttctl enable-event -p LOGGER [--loglevel LEVEL]``) becomes the
user-space event ``lttng_python:event`` of that session, with the fields
of LTTng's agent: ``asctime``, ``msg`` (the formatted message),
``logger_name``, ``funcName``, ``lineno``, ``int_loglevel`` (Python's
number: WARNING is 30), ``thread`` and ``threadName``.

How it works: a handler on the root logger sees the records the
program's logging configuration lets through (a logger's own level still
applies; the agent changes no level).  A record no session wants costs
one comparison with the handler's level, or one dictionary lookup; a
wanted one is handed to libltt-ust, whose filters decide, session by
session, whether it is recorded.  The handler's handle() is C
(ltt._agent.Handler): the rule's lookup, asctime, the message and the
event cost no Python frame.  A thread of the agent waits for the
rules of the channels the program records in and applies them.

The agent never raises into the program (a KeyboardInterrupt or
SystemExit that the program's own code raises while the handler formats
its message goes on, as through logging's own handlers), never blocks
it, and never delays its exit: without a session daemon, or when it
dies, records are not recorded and the program runs as without the
agent.  A forked child
records under its own pid.  ``lttctl list -p`` lists the loggers the
program created.
"""

import logging
import os
import re
import sys
import threading
import time

__all__ = []

# A level no record reaches: what the handler takes when nothing is wanted.
_NOTHING = sys.maxsize
_NO_SINGLES = frozenset()

try:
    from ltt import _agent
except (ImportError, OSError):  # no libltt-ust: the agent does nothing
    _agent = None
_Base = _agent.Handler if _agent is not None else object


def _glob(pattern):
    """A compiled glob of logger names: '*' matches anything; as in
    ltt's event patterns, a backslash makes the next character literal
    ('\\*' a star, '\\\\' a backslash)."""
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if c == "*":
            out.append(".*")
        else:
            if c == "\\" and i + 1 < len(pattern):
                i += 1
                c = pattern[i]
            out.append(re.escape(c))
        i += 1
    return re.compile("".join(out) + r"\Z", re.DOTALL)


class _Rule:
    __slots__ = ("match", "excluded", "kind", "level")

    def __init__(self, pattern, kind, level, exclusions):
        self.match = _glob(pattern).match
        self.excluded = [_glob(x).match for x in exclusions.split(",") if x]
        self.kind = kind        # 0: any level, 1: level and above, 2: that level
        self.level = level

    def takes(self, name):
        return self.match(name) and not any(x(name) for x in self.excluded)


class _Handler(_Base, logging.Handler):
    """Hands the records a session wants to lttng_python:event: handle()
    and emit() are _agent.Handler's, which calls _want() for a logger it
    has no rule for yet, and _second() once a second (the date and time
    of asctime; _time.formatTime() when the Formatter's milliseconds are
    not "%s,%03d"), so that a change of logging.Formatter's converter or
    formats shows in asctime from the next second on."""

    def __init__(self):
        super().__init__(level=_NOTHING)
        self._rules = ()
        self._wants = {}        # logger name -> (lowest level, single levels)
        self._time = logging.Formatter()
        if _agent is not None:
            _agent.setup(self._want, self._second, self._time.formatTime, logging.LogRecord)
            _agent.wants(self._wants)

    def set_rules(self, rules):
        """Apply the rules of the channels that record (from _agent.rules())."""
        made = tuple(_Rule(*r) for r in rules)
        lowest = _NOTHING
        for r in made:
            lowest = min(lowest, 0 if r.kind == 0 else r.level)
        self._rules = made
        self._wants = {}
        _agent.wants(self._wants)
        self.level = lowest     # Logger.callHandlers() compares it first

    def _want(self, name):
        lowest, singles = _NOTHING, set()
        for r in self._rules:
            if not r.takes(name):
                continue
            if r.kind == 2:
                singles.add(r.level)
            else:
                lowest = min(lowest, 0 if r.kind == 0 else r.level)
        want = (lowest, frozenset(singles) if singles else _NO_SINGLES)
        self._wants[name] = want
        return want

    def _second(self, created):
        """The date and time of asctime for this record's time, formatted
        as logging.Formatter does, without its milliseconds; None when
        the Formatter adds them otherwise than "%s,%03d"."""
        fmt = self._time
        if fmt.default_msec_format != "%s,%03d":
            return None
        return time.strftime(fmt.default_time_format, fmt.converter(created))

    def createLock(self):
        self.lock = None        # never taken: handle() needs none

    def acquire(self):
        pass

    def release(self):
        pass


_handler = _Handler()
_reported = set()


def _report(names):
    """Tell the daemons of new loggers (for lttctl list -p)."""
    new = [n for n in names if n not in _reported]
    if new:
        _reported.update(new)
        try:
            _agent.loggers(new)
        except Exception:
            pass


def _watch_loggers():
    """Report the loggers there are, and each one the program creates."""
    manager = logging.Logger.manager
    get = manager.getLogger

    def get_logger(name):
        logger = get(name)
        if name not in _reported:
            _report([name])
        return logger

    manager.getLogger = get_logger
    _report([n for n, lg in list(manager.loggerDict.items())
             if isinstance(lg, logging.Logger)])


def _follow(gen):
    """The agent's thread: apply the rules each time they change."""
    while True:
        try:
            now = _agent.wait(gen, -1)
            if now != gen:
                gen, rules = _agent.rules()
                _handler.set_rules(rules)
        except Exception:
            return


def _start():
    gen, rules = _agent.rules()
    _handler.set_rules(rules)
    threading.Thread(target=_follow, args=(gen,), name="ltt-agent", daemon=True).start()


def _after_fork():
    # the child's channels are its own, given when it registers: none yet
    _handler.set_rules([])
    try:
        _start()
    except Exception:
        pass


if _agent is not None:
    _start()
    logging.getLogger().addHandler(_handler)
    _watch_loggers()
    os.register_at_fork(after_in_child=_after_fork)
