#!/bin/sh
# failed-logs.sh BUILDDIR: for each test 'make check' in BUILDDIR failed,
# its log's last lines, so a CI log says why a test failed, not only which
# (what the test said on stderr, its diagnostics, the failing checks).
dir=${1:?usage: failed-logs.sh BUILDDIR}
grep -rlE '^:test-result: (FAIL|ERROR|XPASS)' --include='*.trs' "$dir" 2>/dev/null |
	head -n 8 | while read -r trs; do
	log=${trs%.trs}.log
	echo "--- ${log#"$dir"/} (last lines, passing checks left out)"
	grep -vE '^(ok|PASS:) ' "$log" | tail -n 25
done
