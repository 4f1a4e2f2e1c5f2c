#!/bin/bash
# test_cli_tls_module.sh - OpenSSL only where TLS is used: lttctl's
# ordinary commands (--version, create, list, destroy) load no libssl or
# libcrypto, nor does libltt-ctl.so need them; a command with TLS files
# (create --tls-*, view --live tls://) loads them through the TLS module
# (net-tls.so, which the check must see, or it would see nothing) and
# works; with the module missing or another file in its place, those
# commands fail, naming the file, why, and what to install, and create
# nothing, while the other commands go on working.  The TLS connections
# themselves, to a relay and through the bridge, are test_relay_tls.sh's.
#
# What a process loaded: the dynamic loader's own list of the objects it
# opens (loaded_objects, LD_DEBUG=files, dlopen() included).
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/tls-lib.sh"

need_openssl
test_init
export LTT_CONSUMERD_PATH="$LTT_TOP_BUILDDIR/src/consumerd/ltt-consumerd"
MODULE=$LTT_NET_TLS_PATH
TLSLIBS='libssl|libcrypto'
[ -f "$MODULE" ] || { echo "Bail out! $MODULE not built"; exit 1; }
C="$TEST_TMP/certs"
tls_certs "$C" || { echo "Bail out! openssl could not make the certificates"; exit 1; }
TLS=(--tls-cert "$C/client.pem" --tls-key "$C/client.key" --tls-ca "$C/ca.pem")

# shellcheck disable=SC2119
start_sessiond || { echo "Bail out! ltt-sessiond did not start"; exit 1; }

# --- the ordinary commands, and the library
objs=""
for cmd in "--version" "create s1 -o $TEST_TMP/trace" "list" "list s1" "destroy s1"; do
	# shellcheck disable=SC2086
	o=$(loaded_objects "$LTTCTL_BIN" $cmd)
	objs+="$o"$'\n'
	like "$o" 'libltt-ctl\.so' "lttctl $cmd: the loader's list holds libltt-ctl (the check sees it)"
	unlike "$o" "$TLSLIBS|net-tls" "lttctl $cmd: no libssl, libcrypto or TLS module loaded"
done
like "$objs" 'libpopt' "the list holds lttctl's own libraries (libpopt)"
lib=$(ldd "$LTT_TOP_BUILDDIR/src/lib/ltt-ctl/.libs/libltt-ctl.so")
like "$lib" 'libc\.so' "ldd libltt-ctl.so lists its libraries (libc)"
unlike "$lib" "$TLSLIBS" "libltt-ctl.so needs no libssl or libcrypto"
unlike "$(ldd "$LTT_TOP_BUILDDIR/src/ctl/.libs/lttctl")" "$TLSLIBS" \
	"nor does lttctl itself (ldd)"

# --- the commands with TLS files load it
o=$(loaded_objects "$LTTCTL_BIN" create st --snapshot --no-output "${TLS[@]}")
like "$o" 'net-tls\.so' "create --tls-*: loads the TLS module"
like "$o" 'libssl' "and libssl with it (the check sees a libssl loaded)"
run lttctl list st
like "$STDOUT" '^Session st ' "create --tls-* made the session"
lttctl -q destroy st
# view --live tls://: the bridge loads the files, says where it listens,
# and serves until killed
exec {BR}< <(exec "$LTTCTL_BIN" view --live "tls://127.0.0.1:1" "${TLS[@]}" 2>"$TEST_TMP/bridge.err")
bridge=$!
read -r -t "$TEST_TIMEOUT" line <&"$BR"
like "$line" '^Live bridge: net://127\.0\.0\.1:[0-9]+ forwards to 127\.0\.0\.1:1 in TLS 1\.3$' \
	"view --live tls://: the bridge loaded the TLS files and listens"
like "$(cat "/proc/$bridge/maps")" 'net-tls\.so' "the bridge's process maps the TLS module"
kill "$bridge"
exec {BR}<&-

# --- the module missing, or another file in its place
snapshot() { ls "$TEST_TMP" "$HOME/.ltt" 2>&1; lttctl list 2>&1; }
before=$(snapshot)
for bad in $(bad_modules net-tls.so "$MODULE"); do
	why=$(bad_module_why "$bad" TLS ltt_net_tls_module)
	export LTT_NET_TLS_PATH=$bad
	want="^Error: $bad: $why: TLS needs ltt's TLS module \\(net-tls\\.so in ltt's library directory"
	run lttctl create st --snapshot --no-output "${TLS[@]}"
	is "$RC" 1 "create --tls-*, module $bad: exit 1"
	like "$ERR" "$want" "create: the error names the file, why, and the module"
	like "$ERR" 'reinstall ltt \(the ltt-tools package\), or set LTT_NET_TLS_PATH to the module; nothing was created$' \
		"create: what to do, and that nothing was created"
	is "$(snapshot)" "$before" "create: no session, no file"
	run lttctl view --live "tls://127.0.0.1:1" "${TLS[@]}"
	is "$RC" 1 "view --live tls://, module $bad: exit 1"
	like "$ERR" "$want" "view --live: the error names the file and why"
	unlike "$STDOUT" 'Live bridge' "view --live: no bridge"
	run lttctl create plain -o "$TEST_TMP/plain"
	is "$RC" 0 "create without TLS: works without the module"
	run lttctl list plain
	like "$STDOUT" '^Session plain ' "and made its session"
	lttctl -q destroy plain
	rm -rf "$TEST_TMP/plain"
done
export LTT_NET_TLS_PATH=$MODULE
run lttctl create st --snapshot --no-output "${TLS[@]}"
is "$RC" 0 "the module back: the same create works"

done_testing
