#!/bin/bash
# The Python package ltt (`import ltt`, src/python) drives the test's
# session daemon with Debian's python3: a whole session (channel, rules
# with a log level, an exclusion and a filter, a context, start, the
# example program, stop, rotate, destroy), checked against lttctl list,
# the trace read by babeltrace2, and lttctl's own error sentences; a
# snapshot session; ltt.Error's code, name and sentence; a personal
# daemon started by create_session.  The checks are python_ctl.py's.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

python_env || skip_all "configured without the Python package (no python3 with Python.h: python3-dev)"
[ -f "$LTT_TOP_BUILDDIR/src/python/.libs/_ltt.so" ] || { echo "Bail out! src/python/_ltt.la not built"; exit 1; }
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 is not installed"
test_init
export LTT_CONSUMERD_PATH="$LTT_TOP_BUILDDIR/src/consumerd/ltt-consumerd"
# the package as make install lays it out: ltt/__init__.py and ltt/_ltt.so
mkdir -p "$TEST_TMP/py/ltt"
ln -s "$LTT_TOP_SRCDIR/src/python/ltt/__init__.py" "$TEST_TMP/py/ltt/__init__.py"
ln -s "$LTT_TOP_BUILDDIR/src/python/.libs/_ltt.so" "$TEST_TMP/py/ltt/_ltt.so"
export LD_LIBRARY_PATH="$LTT_TOP_BUILDDIR/src/lib/ltt-ctl/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
python_env
# shellcheck disable=SC2119
start_sessiond || { echo "Bail out! ltt-sessiond did not start"; exit 1; }
env "${PYENV[@]}" PYTHONPATH="$TEST_TMP/py" LTTCTL="$LTTCTL_BIN" TMP="$TEST_TMP" BT_TIMEOUT="$BT_TIMEOUT" \
	HELLO="$LTT_TOP_BUILDDIR/examples/hello/hello" \
	timeout $((TEST_TIMEOUT * 10)) "$PYTHON3" -B "$LTT_TOP_SRCDIR/tests/regression/python_ctl.py"
