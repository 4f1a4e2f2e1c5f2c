#!/bin/bash
# test_deb_scripts.sh - the ltt-lttng-compat package's preinst and postrm
# (debian/), as dh_installdeb fills them in, run by dpkg's rules on a
# throwaway root (DPKG_ROOT, DPKG_ADMINDIR: dpkg-divert's database there,
# no service touched): install, reinstall (upgrade), remove, purge; a
# remove after Debian's package went; an install refused because another
# package diverts one of the files, which says what to do, changes
# nothing, and whose abort-install leaves the other package's diversion
# alone and succeeds.  No package is built (tests/kernel/test_deb.sh
# builds and installs them).
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

D=$LTT_TOP_SRCDIR/debian
command -v dpkg-divert >/dev/null && command -v dpkg-architecture >/dev/null ||
	skip_all "needs dpkg-divert and dpkg-architecture (Debian's dpkg)"
[ -f "$D/ltt-lttng-compat.preinst" ] || skip_all "no debian/ in $LTT_TOP_SRCDIR"
# Scripts that touch a path outside DPKG_ROOT would change this machine.
if grep -E '^[[:space:]]*(mkdir|rmdir|rm|mv|ln) ' "$D"/ltt-lttng-compat.{preinst,postrm,postinst} |
	grep -qv 'DPKG_ROOT'; then
	echo "Bail out! a maintainer script writes outside \$DPKG_ROOT: not run here"
	exit 1
fi
test_init
plan 17

MA=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
# debian/rules' list, as it hands it to dh_installdeb
# (a make of its own: not the jobserver or the flags of the make running this test)
DIV=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory -C "$LTT_TOP_SRCDIR" -f debian/rules \
	--eval 'ltt-print-diversions: ; @echo $(strip $(LTTNG_DIVERSIONS))' ltt-print-diversions)
is "$(wc -w <<<"$DIV")" 11 "debian/rules lists 11 diversions"

# the maintainer scripts with dh_installdeb's substitutions
for s in preinst postrm; do
	sed -e "s|#LTTNG_DIVERSIONS#|$DIV|" -e "s|#DEB_HOST_MULTIARCH#|$MA|g" \
		-e 's|^#DEBHELPER#$||' "$D/ltt-lttng-compat.$s" >"$TEST_TMP/$s"
done

R=$TEST_TMP/root
export DPKG_ROOT=$R DPKG_ADMINDIR=$R/var/lib/dpkg
mkdir -p "$DPKG_ADMINDIR" "$R/usr/bin" "$R/lib/systemd/system" "$R/usr/lib/$MA"
: >"$DPKG_ADMINDIR/status"
: >"$DPKG_ADMINDIR/diversions"
# Debian's files: each holds its own path
for d in $DIV; do
	echo "${d%%:*}" >"$R${d%%:*}"
done
# files: each of Debian's paths with what it holds ("-": nothing)
files() {
	local d
	for d in $DIV; do
		printf '%s=%s ' "${d%%:*}" "$(cat "$R${d%%:*}" 2>/dev/null || echo -)"
	done
}
ours() { dpkg-divert --list | grep -c ' by ltt-lttng-compat$'; }
before=$(files)

run sh "$TEST_TMP/preinst" install
is "$RC/$(ours)" 0/11 "preinst install: 11 diversions" || diag "$OUT"
is "$(ls "$R/usr/lib/$MA/ltt/lttng-ust.distrib" | wc -l)/$(ls "$R"/usr/bin/*.distrib | wc -l)/$(ls "$R/usr/bin" | grep -vc '\.distrib$')" \
	6/4/0 \
	"Debian's files moved aside: the libraries to their own directory"
run sh "$TEST_TMP/preinst" upgrade 1.0
is "$RC/$(ours)" 0/11 "preinst upgrade (a reinstall): the same 11, nothing added twice" || diag "$OUT"
run sh "$TEST_TMP/postrm" upgrade 1.0
is "$RC/$(ours)" 0/11 "postrm upgrade: the diversions stay"
run sh "$TEST_TMP/postrm" remove
is "$RC/$(ours)" 0/0 "postrm remove: no diversion left" || diag "$OUT"
is "$(files)" "$before" "every one of Debian's files back"
ok "$([ ! -e "$R/usr/lib/$MA/ltt/lttng-ust.distrib" ]; echo $?)" "the libraries' directory is gone"
run sh "$TEST_TMP/postrm" purge
is "$RC/$(ours)" 0/0 "postrm purge after remove: nothing to do"

# Debian's lttng-tools removed while diverted: its diverted files are gone
sh "$TEST_TMP/preinst" install >/dev/null 2>&1
rm -f "$R/usr/bin/lttng.distrib" "$R/usr/bin/lttng-sessiond.distrib"
run sh "$TEST_TMP/postrm" remove
is "$RC/$(ours)" 0/0 "postrm remove after Debian's files went: no diversion left" || diag "$OUT"
ok "$([ ! -e "$R/usr/bin/lttng" ] && [ -e "$R/usr/bin/lttng-relayd" ]; echo $?)" \
	"... the files that were there back, no other made"
echo /usr/bin/lttng >"$R/usr/bin/lttng"
echo /usr/bin/lttng-sessiond >"$R/usr/bin/lttng-sessiond"

# Another package diverts lttng-relayd: the install is refused
dpkg-divert --package other-pkg --add --rename --quiet --divert /usr/bin/lttng-relayd.other \
	/usr/bin/lttng-relayd
before=$(files)
run sh "$TEST_TMP/preinst" install
is "$RC" 1 "preinst install with another package's diversion of lttng-relayd: refused"
like "$ERR" "/usr/bin/lttng-relayd is diverted by other-pkg already.*remove that diversion" \
	"... saying which file, whose diversion, and what to do"
is "$(ours)/$(files)" "0/$before" "... before anything changed"
run sh "$TEST_TMP/postrm" abort-install
is "$RC" 0 "postrm abort-install succeeds" || diag "$OUT"
is "$(dpkg-divert --listpackage /usr/bin/lttng-relayd)/$(ours)" other-pkg/0 \
	"... and leaves the other package's diversion alone"
is "$(files)" "$before" "... and every file as it was"
done_testing
