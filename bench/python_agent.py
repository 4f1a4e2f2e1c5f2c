# SPDX-License-Identifier: LGPL-2.1-only
"""ns per logging call, for bench/python_agent.sh.

python_agent.py AGENT N RUNS LOGGER: AGENT is none (plain logging), ltt
(import ltt.agent), lttng (import lttngust) or stages (ltt.agent's
handler cut short at each of its steps, see stages()); logs N warnings
on LOGGER (after 1000 to warm up) RUNS times and prints, for each run, the
ns per call (stages: one line per stage, its runs, the stages taking
turns).  The root logger has a NullHandler, so that no run writes
anything.
"""
import logging
import sys
import time

agent, n, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
if agent in ("ltt", "stages"):
    import ltt.agent
elif agent == "lttng":
    import lttngust  # noqa: F401
root = logging.getLogger()
root.setLevel(logging.DEBUG)
root.addHandler(logging.NullHandler())
log = logging.getLogger(sys.argv[4])


def timed(logger=log):
    t0 = time.perf_counter_ns()
    for i in range(n):
        logger.warning("record %d", i)
    return (time.perf_counter_ns() - t0) / n


def stages():
    """ltt.agent's handler stopped after each of its steps: none (the
    handler off the root logger), dispatch (Logger.callHandlers() calls a
    Python handle() that returns at once), then, for a handler in C
    (_agent.Handler): rule (the logger's rule looked up, the level
    compared: a logger no rule names, qa.other) and record (the whole
    handler: the event recorded); for the handler in Python (an older
    tree's, BEFORE=): rule, asctime, message (record.getMessage()),
    fields (the record's 8 fields read and passed to _agent.event(),
    which returns before the tracepoint for a call of 7 arguments) and
    record."""
    h = ltt.agent._handler
    # (step, its handle(): None for none, False for the handler's own, logger)
    steps = [("none", None, log), ("dispatch", lambda record: True, log)]
    if hasattr(h, "_asctime"):
        wants = h._wants

        def rule(record):
            want = wants.get(record.name) or h._want(record.name)
            return record.levelno >= want[0] or record.levelno in want[1]

        def asctime(record):
            if rule(record):
                h._asctime(record)
            return True

        def message(record):
            if rule(record):
                h._asctime(record)
                record.getMessage()
            return True

        def fields(record):
            if rule(record):
                ltt.agent._agent.event(h._asctime(record), record.getMessage(), record.name,
                                       record.funcName, record.lineno, record.levelno,
                                       record.thread or 0)
            return True

        steps += [("rule", rule, log), ("asctime", asctime, log), ("message", message, log),
                  ("fields", fields, log), ("record", False, log)]
    else:
        steps += [("rule", False, logging.getLogger("qa.other")), ("record", False, log)]
    out = {name: [] for name, _, _ in steps}
    for _ in range(runs):
        for name, fn, logger in steps:
            if fn is None:
                root.removeHandler(h)
            elif fn:
                h.handle = fn
            timed(logger)  # warm up this step's code
            out[name].append(timed(logger))
            if fn is None:
                root.addHandler(h)
            elif fn:
                del h.handle
    for name, _, _ in steps:
        print(name, " ".join("%.0f" % v for v in out[name]))


for i in range(1000):
    log.warning("record %d", i)
if agent == "stages":
    stages()
else:
    print(" ".join("%.0f" % timed() for _ in range(runs)))
