# SPDX-License-Identifier: LGPL-2.1-only
"""A program that logs with Python's logging module, for test_python_agent.sh.

python_agent_app.py MODE [ARGS]: imports ltt.agent, then
  burst          300 warnings and 300 infos on qa.app, 300 debugs on other
  hold FIFO      create qa.app and other, say "ready PID" on stdout, wait
                 for a line on FIFO, then burst
  fork           fork: the child logs 100 warnings on qa.child, the
                 parent 100 on qa.app; both exit 0
  threads N      N threads, 100 warnings each on qa.app
  clock          10 warnings on qa.app whose times a filter sets (within a
                 second, across seconds, backwards, an hour and a day on),
                 each message ending with the asctime Python's Formatter
                 gives that time
  relearn FIFO   100 debugs on other and 100 warnings on qa.app, say
                 "ready PID", wait for a line on FIFO, apply the rules once
                 they name qa.app (within 10 s), then 100 warnings on qa.app
  level          print the agent's handler level and exit
Exits 0 unless something raised.
"""
import logging
import os
import sys
import threading
import time

import ltt.agent

logging.getLogger().setLevel(logging.DEBUG)
app = logging.getLogger("qa.app")
other = logging.getLogger("other")


def burst():
    for i in range(300):
        app.warning("warning %d of %s", i, "qa.app")
        app.info("info %d", i)
        other.debug("debug %d", i)


mode = sys.argv[1]
if mode == "burst":
    burst()
elif mode == "hold":
    print("ready %d" % os.getpid(), flush=True)
    with open(sys.argv[2]) as f:
        f.readline()
    burst()
elif mode == "fork":
    pid = os.fork()
    if pid == 0:
        child = logging.getLogger("qa.child")
        for i in range(100):
            child.warning("child %d", i)
        os._exit(0)
    for i in range(100):
        app.warning("parent %d", i)
    _, status = os.waitpid(pid, 0)
    sys.exit(os.waitstatus_to_exitcode(status))
elif mode == "threads":
    def work(n):
        for i in range(100):
            app.warning("thread %d record %d", n, i)
    ts = [threading.Thread(target=work, args=(n,), name="worker-%d" % n)
          for n in range(int(sys.argv[2]))]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
elif mode == "clock":
    fmt = logging.Formatter()
    base = 1700000000.0
    stamps = [base + d for d in (0.001, 0.998, 0.9995, 1.0, 1.25, 0.5, 3600.75, 3600.75,
                                 86400.004, 0.999)]

    class At(logging.Filter):
        def filter(self, record):
            record.created = stamps[record.args[0]]
            record.msecs = int((record.created - int(record.created)) * 1000)
            record.msg = "at %d: " + fmt.formatTime(record)
            return True

    app.addFilter(At())
    for i in range(len(stamps)):
        app.warning("at %d", i)
elif mode == "relearn":
    for i in range(100):
        other.debug("other %d", i)
        app.warning("before %d", i)
    print("ready %d" % os.getpid(), flush=True)
    with open(sys.argv[2]) as f:
        f.readline()
    agent = ltt.agent._agent
    gen, rules = agent.rules()
    deadline = time.monotonic() + 10
    while not any(r[0] == "qa.app" for r in rules) and time.monotonic() < deadline:
        agent.wait(gen, 1000)
        gen, rules = agent.rules()
    ltt.agent._handler.set_rules(rules)     # as the agent's thread does
    for i in range(100):
        app.warning("after %d", i)
elif mode == "level":
    print(ltt.agent._handler.level)
