#!/bin/bash
# codec.sh - instructions per message of the field-table codec, beside
# decoders written by hand, counted by callgrind (bench/codec_bench.c).
#
#   bench/codec.sh [BUILD_DIR] [N]      (default: ., 100000)
set -u
B=$(cd "${1:-.}" && pwd)
N=${2:-100000}
command -v valgrind > /dev/null || { echo "$0: needs valgrind" >&2; exit 2; }
T=$(mktemp -d /tmp/ltt-codec.XXXXXX)
trap 'rm -rf "$T"' EXIT

valgrind --tool=callgrind --callgrind-out-file="$T/out" --toggle-collect='bench_*' \
	"$B/bench/codec_bench" "$N" > /dev/null 2>&1 || { echo "$0: codec_bench failed" >&2; exit 1; }
echo "instructions/message (callgrind, $N messages a loop):"
callgrind_annotate --inclusive=yes "$T/out" 2> /dev/null |
	awk -v d="$N" 'match($0, /:bench_[a-z_]*/) && !/=>/ {
		name = substr($0, RSTART + 7, RLENGTH - 7);
		n = $1; gsub(",", "", n);
		if (!(name in seen)) { seen[name] = 1; printf "  %-22s %7.1f\n", name, n / d } }' |
	sort
