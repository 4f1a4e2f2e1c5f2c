#!/bin/sh
# Check kmod/ against the kernel's coding style with the kernel's own
# scripts/checkpatch.pl (not shipped here: it comes with a kernel source
# tree, e.g. Debian's linux-source-6.1 tarball).
#
#   scripts/checkpatch-kmod.sh [PATH/TO/checkpatch.pl] [FILE...]
#
# Without a path, $CHECKPATCH is used, else checkpatch.pl on $PATH, else
# scripts/checkpatch.pl of a kernel tree under /usr/src.  With none found
# it says so and exits 0 (skipped).  Checks every kmod/*.c, *.h, probes/
# and wrapper/ file (or the FILEs given) with --strict; prints each file's
# totals and the sum; exits 1 if any ERROR or WARNING is left (CHECKs are
# reported but do not fail: doc/kmod.md lists the ones that stay).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)

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
	set -- kmod/*.c kmod/*.h kmod/probes/*.[ch] kmod/wrapper/*.[ch]
fi

errors=0 warnings=0 checks=0 status=0
for f in "$@"; do
	out=$(perl "$cp" --no-tree --strict --max-line-length=100 \
		--show-types --terse -f "$f" 2>&1)
	# With --terse, one line per finding: "FILE:LINE: TYPE:KIND: text".
	e=$(printf '%s\n' "$out" | grep -c ': ERROR:')
	w=$(printf '%s\n' "$out" | grep -c ': WARNING:')
	c=$(printf '%s\n' "$out" | grep -c ': CHECK:')
	[ "$e$w$c" = 000 ] || printf '%s\n' "$out" | grep -E ': (ERROR|WARNING|CHECK):'
	errors=$((errors + e)) warnings=$((warnings + w)) checks=$((checks + c))
done
echo "checkpatch-kmod: $# files: $errors errors, $warnings warnings, $checks checks"
[ "$errors" -eq 0 ] && [ "$warnings" -eq 0 ] || status=1
exit $status
