# SPDX-License-Identifier: LGPL-2.1-only
"""ns per logging call, for bench/python_agent.sh.

python_agent.py AGENT N: AGENT is none (plain logging), ltt (import
ltt.agent) or lttng (import lttngust); logs N warnings on logger qa.app
(after 1000 to warm up) and prints the median ns per call of 5 runs.
The root logger has a NullHandler, so that no run writes anything.
"""
import logging
import sys
import time

agent, n = sys.argv[1], int(sys.argv[2])
if agent == "ltt":
    import ltt.agent  # noqa: F401
elif agent == "lttng":
    import lttngust  # noqa: F401
root = logging.getLogger()
root.setLevel(logging.DEBUG)
root.addHandler(logging.NullHandler())
log = logging.getLogger("qa.app")
for i in range(1000):
    log.warning("record %d", i)
runs = []
for _ in range(5):
    t0 = time.perf_counter_ns()
    for i in range(n):
        log.warning("record %d", i)
    runs.append((time.perf_counter_ns() - t0) / n)
print("%.0f" % sorted(runs)[2])
