#!/bin/sh
# scripts/slowest.sh BUILDDIR [N]: the N (default 15) slowest tests of
# the last 'make check' in BUILDDIR, slowest first, from the time each
# test's log ends with (tests/wall-limit.sh); scripts/test.sh and
# scripts/sanitize.sh print them, so that a CI log says where its time
# went.
set -u
dir=${1:?usage: slowest.sh BUILDDIR [N]}
n=${2:-15}
find "$dir/tests" -name '*.log' -type f -exec grep -h '^# wall-limit.sh: .* took [0-9]* s$' {} + 2>/dev/null |
	sed -E 's|^# wall-limit.sh: (.*) took ([0-9]+) s$|\2 \1|' |
	sed -E "s| [^ ]*/tests/| tests/|" |
	sort -rn | head -n "$n" | awk '{ printf "slowest: %5d s  %s\n", $1, $2 }'
