#!/bin/sh
# Check kmod/ against the kernel's coding style with the kernel's own
# scripts/checkpatch.pl (not shipped here: it comes with a kernel source
# tree, e.g. Debian's linux-source-6.1 tarball).
#
#   scripts/checkpatch-kmod.sh [--all] [PATH/TO/checkpatch.pl] [FILE...]
#
# Without a path, $CHECKPATCH is used, else checkpatch.pl on $PATH, else
# scripts/checkpatch.pl of a kernel tree under /usr/src.  With none found
# it says so and exits 0 (skipped).  Checks every kmod/*.c, *.h, probes/
# and wrapper/ file (or the FILEs given) with --strict and 100 columns.
# Findings of a type reviewed for that file (the table below, explained
# in doc/kmod.md) are counted but not shown (--all shows them); any other
# finding is shown and makes the exit status 1.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)

all=0
if [ "${1:-}" = --all ]; then
	all=1
	shift
fi
cp=
case ${1:-} in
*checkpatch.pl) cp=$1; shift ;;
esac
[ -n "$cp" ] || cp=${CHECKPATCH:-}
[ -n "$cp" ] || cp=$(command -v checkpatch.pl 2>/dev/null || true)
if [ -z "$cp" ]; then
	for f in /usr/src/linux-source-*/scripts/checkpatch.pl \
		/usr/src/linux-*/scripts/checkpatch.pl; do
		[ -f "$f" ] && cp=$f && break
	done
fi
if [ -z "$cp" ]; then
	echo "checkpatch-kmod: SKIP: no checkpatch.pl given or found" \
		"(pass its path, or set CHECKPATCH)"
	exit 0
fi
if [ ! -f "$cp" ]; then
	echo "checkpatch-kmod: $cp: no such file" >&2
	exit 2
fi
command -v perl >/dev/null 2>&1 || {
	echo "checkpatch-kmod: SKIP: perl not found"
	exit 0
}

cd "$top" || exit 2
if [ $# -eq 0 ]; then
	set -- kmod/*.c kmod/*.h kmod/probes/*.[ch] kmod/wrapper/*.[ch] src/abi/*.h
fi

# The types each file keeps, reviewed: checkpatch misreads macros that
# generate declarations, initializers and statement lists (ltt-event.h,
# the X-macro lists), the event declarations' TRACE_EVENT-like layout, and
# preprocessor syntax; the rest is intended (doc/kmod.md, "Coding style").
EVENTS="PARENTHESIS_ALIGNMENT OPEN_ENDED_LINE"
reviewed() {
	case $1 in
	src/abi/ltt-abi.h) echo BIT_MACRO ;;
	kmod/ltt-event.h)
		echo COMPLEX_MACRO MULTISTATEMENT_MACRO_USE_DO_WHILE \
			TRAILING_SEMICOLON MACRO_ARG_REUSE MACRO_ARG_PRECEDENCE SPACING ;;
	kmod/ltt-events.c) echo COMPLEX_MACRO TRAILING_SEMICOLON ;;
	kmod/ltt-statedump.c) echo "$EVENTS" ;;
	kmod/probes/ltt-probes.h) echo COMPLEX_MACRO MACRO_ARG_REUSE ;;
	kmod/probes/ltt-probe-logger.c) echo "$EVENTS EXPORTED_WORLD_WRITABLE" ;;
	kmod/probes/ltt-probe-sched.c) echo "$EVENTS MACRO_ARG_REUSE" ;;
	kmod/probes/ltt-probe-syscalls.c)
		echo "$EVENTS COMPLEX_MACRO MULTISTATEMENT_MACRO_USE_DO_WHILE" ;;
	kmod/probes/ltt-probe-timer.c) echo "$EVENTS SPACING" ;;
	kmod/probes/ltt-probe-*.c) echo "$EVENTS" ;;
	kmod/wrapper/ltt-wrapper.h) echo LINUX_VERSION_CODE CONSTANT_COMPARISON SPACING ;;
	esac
}

errors=0 warnings=0 checks=0 new=0
for f in "$@"; do
	out=$(perl "$cp" --no-tree --strict --max-line-length=100 \
		--show-types --terse -f "$f" 2>&1 | grep -E ': (ERROR|WARNING|CHECK):')
	[ -n "$out" ] || continue
	# With --terse, one line per finding: "FILE:LINE: LEVEL:TYPE: text".
	e=$(printf '%s\n' "$out" | grep -c ': ERROR:')
	w=$(printf '%s\n' "$out" | grep -c ': WARNING:')
	c=$(printf '%s\n' "$out" | grep -c ': CHECK:')
	errors=$((errors + e)) warnings=$((warnings + w)) checks=$((checks + c))
	types=$(reviewed "$f" | tr ' ' '|')
	if [ -n "$types" ]; then
		fresh=$(printf '%s\n' "$out" | grep -Ev ": [A-Z]+:($types): " || true)
	else
		fresh=$out
	fi
	if [ "$all" = 1 ]; then
		printf '%s\n' "$out"
	elif [ -n "$fresh" ]; then
		printf '%s\n' "$fresh"
	fi
	[ -z "$fresh" ] || new=$((new + $(printf '%s\n' "$fresh" | wc -l)))
done
echo "checkpatch-kmod: $# files: $errors errors, $warnings warnings, $checks checks;" \
	"$new not reviewed"
[ "$new" -eq 0 ]
