# A program that uses LTTng's own Python agent, as Debian ships it
# (python3-lttngust), for test_lttng_agent.sh.  It counts the agent's
# handlers on the root logger (the agent adds its handler at the first
# ENABLE and removes it at the last DISABLE), then answers lines on
# stdin:
#   handlers N  -> waits (10 s at most) until the root logger holds N of
#                  the agent's handlers, prints "handlers COUNT"
#   exit        -> exits
import logging
import sys
import threading

cond = threading.Condition()
root = logging.getLogger()


def agent_handlers():
    return sum(1 for h in root.handlers if type(h).__module__.startswith("lttngust"))


def watch(name):
    orig = getattr(root, name)

    def wrapped(h):
        with cond:
            orig(h)
            cond.notify_all()
    setattr(root, name, wrapped)


watch("addHandler")
watch("removeHandler")
logging.getLogger("qa.app")
logging.getLogger("qa.other")
import lttngust  # noqa: E402,F401  registers before the import returns

print("ready %d" % agent_handlers(), flush=True)
for line in sys.stdin:
    words = line.split()
    if words[:1] == ["handlers"]:
        want = int(words[1])
        with cond:
            cond.wait_for(lambda: agent_handlers() == want, timeout=10)
            print("handlers %d" % agent_handlers(), flush=True)
    elif words[:1] == ["exit"]:
        break
