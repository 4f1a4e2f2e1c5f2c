# A program that logs through LTTng's own Python agent, as Debian ships it
# (python3-lttngust), for test_lttng_agent_record.sh: the same records
# go to ltt (under ltt-run) and to Debian's LTTng, which must record the
# same ones.  Argument: how many rounds.  Each round logs on qa.app,
# qa.other and qa.fmt.sub at every level of Python's logging (and 25, a
# level of the program's own), then on a logger no rule names.
import logging
import sys

import lttngust  # noqa: F401  registers (rules in place) before returning

logging.addLevelName(25, "NOTICE")
loggers = [logging.getLogger(n) for n in ("qa.app", "qa.other", "qa.fmt.sub", "zz.none")]
for r in range(int(sys.argv[1])):
    for log in loggers:
        for lvl in (logging.DEBUG, logging.INFO, 25, logging.WARNING, logging.ERROR, logging.CRITICAL):
            log.log(lvl, "%s %d at %d", "keep" if r % 2 else "skip", r, lvl)
    logging.getLogger("qa.app").warning("naïve ünïcode, a \"quote\" and 100%")
