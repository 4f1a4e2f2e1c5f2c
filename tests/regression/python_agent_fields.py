# SPDX-License-Identifier: LGPL-2.1-only
"""The same logging records through ltt's agent or LTTng's, for
test_python_agent_fields.sh, which compares what each records.

python_agent_fields.py AGENT: AGENT is ltt (import ltt.agent) or lttng
(import lttngust, Debian's python3-lttngust).  Logs on qa.app and
qa.other.sub: messages with positional and named arguments, without
any, a message that is no str, non-ASCII text, a message that fails to
format (neither agent records it; lttngust's handler raises, which the
program prints as "raised"), a message whose str() raises
KeyboardInterrupt (recorded by neither, raised by both: "interrupted"),
every level and a level of the
program's own, each conversion ltt's handler makes itself and the ones
beside them (one with too many arguments fails as above), a message
whose str() is a str subclass with its own %, a record class of a factory with its own getMessage(),
another thread, and asctime in local time (TZ), in UTC
(Formatter.converter) and with the Formatter's milliseconds as
"%s.%03d".  A filter gives each record a time (two or three a second)
and a thread id, so that both agents' records
can be compared field by field.  Prints "done N" (N records logged).
"""
import logging
import sys
import threading
import time

if sys.argv[1] == "ltt":
    import ltt.agent  # noqa: F401
else:
    import lttngust  # noqa: F401

logging.raiseExceptions = False     # the record that fails: no traceback
logging.getLogger().setLevel(logging.DEBUG)
logging.addLevelName(25, "NOTICE")
app = logging.getLogger("qa.app")
sub = logging.getLogger("qa.other.sub")
count = 0


class Stamp(logging.Filter):
    """Each record's time: 1700000000 + its number * 0.4 (two or three
    records a second) + shift, and a thread id of its own."""
    shift = 0

    def filter(self, record):
        global count
        record.created = 1700000000.0 + count * 0.4 + 0.0005 + Stamp.shift
        record.msecs = int((record.created - int(record.created)) * 1000) + 0.0
        record.thread = 4000 + count
        if record.msg == "wide numbers":     # past 32 bits, negative
            record.thread = -5
            record.lineno = 2**32 + 9
        count += 1
        return True


for lg in (app, sub):
    lg.addFilter(Stamp())


class Thing:
    def __str__(self):
        return "a thing %s"


def main():
    app.warning("positional %s %d", "args", 7)
    app.warning("named %(a)s-%(b)d", {"a": "x", "b": 2})
    app.warning("no arguments, 100%")
    app.warning(Thing(), "formatted")
    app.warning(42)
    app.warning("naïve ünïcode \u20ac, a \"quote\" and a \\ backslash")
    try:
        app.warning("fails %d", "not a number")
    except TypeError:   # lttngust's handler raises into the program
        print("raised")
    for lvl in (logging.DEBUG, logging.INFO, 25, logging.WARNING, logging.ERROR,
                logging.CRITICAL):
        sub.log(lvl, "level %d", lvl)


main()
t = threading.Thread(target=lambda: app.error("from %s", "a worker"), name="worker-1")
t.start()
t.join()

old_factory = logging.getLogRecordFactory()


class Custom(logging.LogRecord):
    def getMessage(self):
        return "[custom] " + super().getMessage()


logging.setLogRecordFactory(Custom)
app.warning("through %s", "a factory class")
logging.setLogRecordFactory(old_factory)

# ltt's agent formats a second's date and time once: a change of the
# Formatter's shows from the next second on; here between seconds
Stamp.shift = 10
logging.Formatter.converter = time.gmtime
app.warning("utc")
app.warning("utc again")
Stamp.shift = 20
logging.Formatter.default_msec_format = "%s.%03d"
app.warning("msec with a dot")
app.warning("msec with a dot again")

# the conversions ltt's handler makes itself (%s of a str or an int, %d,
# %i, %u of an int, %%) and the ones next to them that Python makes
Level = __import__("enum").IntEnum("Level", "LOW HIGH")
app.warning("%s|%d|%i|%u|%%|%s|%s", "\u00e9\u20ac", -2**63, 0, 12, 2**63 - 1, -5)
app.warning("%s %d %s %d %s %d", True, False, 3.5, 3.5, Level.HIGH, Level.LOW)
app.warning("%d %5d %x %s %s|%.2s", 2**64, 3, 255, Thing(), type("S", (str,), {})("sub"), "abc")
app.warning("%s %s", "", "end %s %%")
# int_loglevel, lineno and thread as 32 bits: a level past them, a line
# past them, a negative thread id (Stamp)
app.log(2**32 + 30, "wide numbers")


class OwnMod(str):   # msg % args is its __mod__, as getMessage() does it
    def __mod__(self, args):
        return "own modulo of %d arguments" % len(args)


class Message:
    def __str__(self):
        return OwnMod("never %s")


app.warning(Message(), "x", "y")
try:
    app.warning("%s", "one", "too many")
except TypeError:
    print("raised")


class Interrupt:
    def __str__(self):
        raise KeyboardInterrupt


try:   # neither agent swallows what is no Exception
    app.warning(Interrupt())
except KeyboardInterrupt:
    print("interrupted")
print("done %d" % count)
