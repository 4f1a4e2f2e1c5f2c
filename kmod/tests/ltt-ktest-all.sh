#!/bin/sh
# ltt-ktest-all.sh OUT - run every ltt-ktest scenario in a kernel where
# ltt-tracer.ko is loaded (as root); CTF traces go to OUT/{basic,logger,
# statedump} for babeltrace2 on the host (20000, 2 and >= 3 events).
# Prints each scenario's TAP lines; exits 1 if any failed.
out=${1:?usage: ltt-ktest-all.sh OUTDIR}
bin=${LTT_KTEST:-ltt-ktest}
fail=0
mkdir -p "$out/basic" "$out/logger" "$out/statedump" || exit 1
run() {
	echo "# ltt-ktest $*"
	"$bin" "$@" || fail=1
}
run basic 20000 "$out/basic"
run stress 30000 4096 4
run stress 30000 65536 16
run timers
run discard 2000
run overwrite 3000
run logger "$out/logger"
run statedump "$out/statedump"
run errors
run unpriv
run fuzz 20000
mkdir -p "$out/kprobes" && run kprobes "$out/kprobes"
run maps
run bench 100000
exit $fail
