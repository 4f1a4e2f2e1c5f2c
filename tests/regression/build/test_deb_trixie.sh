#!/bin/bash
# test_deb_trixie.sh - ltt's Debian packages on Debian 13 (trixie), as a
# Debian 13 user gets them: dpkg-buildpackage -b in a trixie root
# (scripts/debian-root.sh, debian/control's build dependencies by their
# Debian 13 names) builds every package from the tree `make dist` ships,
# with its debhelper and gcc 14, which warns of nothing (the project's
# warnings: LTT_WARN_CFLAGS); in that build's tree, the unit tests pass
# and user-space sessions record, read by Debian 13's babeltrace2 2.1 (a
# regression subset); its lintian reports no error and no
# warning; apt installs them in an overlay of the root (the cached root
# untouched), their dependencies met by Debian 13's packages; the session
# daemon they installed records the example of libltt-ust-dev, built
# there with its pkg-config, and Debian 13's babeltrace2 reads every
# event; ltt-lttng-compat takes the place of Debian 13's LTTng, its unit
# diverted under /usr/lib, and gives it back; dpkg -r takes them away.
# The same packages on sid, over LTTng 2.16: ltt-lttng-compat takes its
# place, sid's lttng 2.16 drives ltt's daemon, and gives it back.
# test_deb.sh does the same on Debian 12, booted with systemd.  Skipped where the root can't be made, and in a
# sanitizer build.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/root-lib.sh"

test_init
unset MAKEFLAGS MFLAGS MAKELEVEL
[[ $(sed -n 's/^CFLAGS = //p' "$LTT_TOP_BUILDDIR/Makefile") != *-fsanitize=* ]] ||
	skip_all "a sanitizer build: the plain pass builds the packages in the trixie root"
root_or_skip trixie "$ROOT_BUILD_PKGS"
plan 28

VER=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"/\1/p' "$LTT_TOP_BUILDDIR/config.h")
ARCH=amd64
SRC=$TEST_TMP/ltt-$VER
run timeout 300 make -C "$LTT_TOP_BUILDDIR" distdir distdir="$SRC"
[ "$RC" = 0 ] || { echo "Bail out! make distdir failed"; tail -n 20 <<<"$OUT" | sed 's/^/# /'; exit 1; }

# --- built and checked in the root
in_root sh -c 'cd "$1" && timeout 1500 dpkg-buildpackage -b -us -uc -j"$(nproc)"' sh "$SRC" \
	>"$TEST_TMP/build.log" 2>&1
ok $? "dpkg-buildpackage -b -us -uc builds them in Debian 13" ||
	{ tail -n 30 "$TEST_TMP/build.log" | sed 's/^/# /'; echo "Bail out! no packages"; exit 1; }
# gcc 14's warnings (the package's build is not --enable-werror: counted)
warn='^[^ :]+:[0-9]+:[0-9]+: warning: '
is "$(grep -cE "$warn" "$TEST_TMP/build.log")" 0 "gcc 14 builds the tree without a warning" ||
	grep -E "$warn" "$TEST_TMP/build.log" | head -n 10 | sed 's/^/# /'
# the suite's unit tests, as its Makefile lists them, then user-space
# sessions end to end, in the package's build tree (its programs built
# with Debian 13's gcc and hardening flags).  Each step builds the check
# programs of its own folder only (check-TESTS, check_PROGRAMS,
# check_LTLIBRARIES and check_DATA named): the rest of make check (the
# fuzz targets, the kernel guests' programs and their installed stage,
# none run here) was a third of the unit tests' step.
# in_tree SCRIPT ARG...: SCRIPT in the package's build tree, in the root,
# with mkfilter FOLDER VAR: the words of make's VAR under FOLDER/ there
in_tree() {
	in_root sh -c 'cd "$0/debian/build" || exit 1
		mkfilter() { make -s --no-print-directory --eval "ltt-var: ; @echo \$(filter $1/%,\$($2))" ltt-var; }
		'"$1" "$SRC" "${@:2}"
}
# failures LOG: LOG's failed checks, and what each failed test's own log
# says after its first "not ok" (the values compared): a failure that
# comes once in many runs says why the first time
failures() {
	local t
	grep -E '^(FAIL|ERROR)' "$1" | head -n 8 | sed 's/^/# /'
	for t in $(sed -n 's/^FAIL: \([^ ]*\) .*/\1/p' "$1" | sort -u | head -n 3); do
		grep -A 6 -m 1 '^not ok' "$SRC/debian/build/${t%.sh}.log" 2>/dev/null |
			sed "s|^|# ${t##*/}: |"
	done
}
in_tree 'make -j"$(nproc)" check-TESTS TESTS="$(mkfilter tests/unit TESTS)" \
	check_PROGRAMS="$(mkfilter tests/unit check_PROGRAMS)" check_LTLIBRARIES="$(mkfilter tests/unit check_LTLIBRARIES)" \
	check_DATA=' >"$TEST_TMP/units.log" 2>&1
ok $? "the unit tests pass in the root" || failures "$TEST_TMP/units.log"
n=$(grep -c '^PASS' "$TEST_TMP/units.log")
ok "$([ "$n" -gt 500 ]; echo $?)" "  $n checks of them"
in_tree 'make -j"$(nproc)" check-TESTS TESTS="$1" check_PROGRAMS="$(mkfilter tests/regression check_PROGRAMS)" \
	check_LTLIBRARIES="$(mkfilter tests/regression check_LTLIBRARIES)" check_DATA=' \
	"tests/regression/ust/test_ust_basic.sh tests/regression/ust/test_ust_per_channel.sh tests/regression/cli/test_cli_sessions.sh" \
	>"$TEST_TMP/reg.log" 2>&1
ok $? "user-space sessions record there, read by its babeltrace2 2.1 (test_ust_basic, test_ust_per_channel, test_cli_sessions)" ||
	failures "$TEST_TMP/reg.log"
pkgs="ltt-tools libltt-ctl1 libltt-ctl-dev libltt-ust0 libltt-ust-dev python3-ltt ltt-lttng-compat"
got=""
for p in $pkgs; do
	[ -s "$TEST_TMP/${p}_${VER}_$ARCH.deb" ] && got="$got $p"
done
[ -s "$TEST_TMP/ltt-modules-dkms_${VER}_all.deb" ] && got="$got ltt-modules-dkms"
is "$got" " $pkgs ltt-modules-dkms" "the eight packages, as on Debian 12"
like "$(dpkg-deb -f "$TEST_TMP/ltt-tools_${VER}_$ARCH.deb" Depends)" "lib[a-z0-9.-]+t64 " \
	"ltt-tools depends on Debian 13's libraries by their names there (those of 64-bit time_t: ...t64)"
in_root lintian "$TEST_TMP/ltt_${VER}_$ARCH.changes" >"$TEST_TMP/lintian" 2>&1
like "$(dpkg-deb -c "$TEST_TMP/ltt-tools_${VER}_$ARCH.deb")" " \\./usr/lib/systemd/system/ltt-sessiond\\.service" \
	"its units in /usr/lib/systemd/system, as Debian 13 puts them (/usr merged)"
is "$(grep -cE '^[EW]: ' "$TEST_TMP/lintian")" 0 "Debian 13's lintian reports no error and no warning"
grep -E '^[EW]: ' "$TEST_TMP/lintian" | head -n 20 | sed 's/^/# /'

# --- installed, used and removed, in an overlay of the root
ROOT_OVERLAY=$TEST_TMP/overlay
# no service started or stopped from the chroot (invoke-rc.d: Debian's
# LTTng has an init script there), whose /proc shows the host's processes
in_root sh -c 'printf "#!/bin/sh\nexit 101\n" >/usr/sbin/policy-rc.d && chmod 0755 /usr/sbin/policy-rc.d'
debs=""
for p in ltt-tools libltt-ctl1 libltt-ctl-dev libltt-ust0 libltt-ust-dev python3-ltt; do
	debs="$debs $TEST_TMP/${p}_${VER}_$ARCH.deb"
done
# shellcheck disable=SC2086
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $debs \
	>"$TEST_TMP/install.log" 2>&1
ok $? "apt installs them in Debian 13, their dependencies met by its packages" ||
	tail -n 20 "$TEST_TMP/install.log" | sed 's/^/# /'
is "$(in_root dpkg-query -W -f='${Package} ${db:Status-Status}\n' 'ltt-*' 'libltt-*' python3-ltt |
	awk '$2 == "installed" { print $1 }' | sort | tr '\n' ' ')" \
	"libltt-ctl-dev libltt-ctl1 libltt-ust-dev libltt-ust0 ltt-tools python3-ltt " "... all six installed"

# the demo, as a user runs it there: the installed daemon, the example
# built with the installed headers and pkg-config
EX=/usr/share/doc/libltt-ust-dev/examples
in_root env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root sh -c '
	out=$1
	set -e
	cc -o /tmp/hello "$2/hello.c" $(pkg-config --cflags --libs ltt-ust)
	# this daemon only (the host'"'"'s others are in sight): its pid, its socket
	ltt-sessiond &
	sd=$!
	i=0
	while [ ! -S /run/ltt/client.sock ] && [ $i -lt 300 ] && kill -0 $sd; do
		sleep 0.1
		i=$((i + 1))
	done
	lttctl create demo -o "$out/demo"
	lttctl enable-event -u "hello_world:*"
	lttctl start
	/tmp/hello 100
	lttctl stop
	lttctl destroy demo
	kill $sd
	wait $sd' sh "$TEST_TMP" "$EX" >"$TEST_TMP/demo.log" 2>&1
ok $? "the installed ltt-sessiond and lttctl record the example, built with the installed headers" ||
	tail -n 20 "$TEST_TMP/demo.log" | sed 's/^/# /'
bt21 "$TEST_TMP/demo" "$TEST_TMP/demo.txt"
is "$(grep -c ' hello_world:' "$TEST_TMP/demo.txt")/$(grep -c 'discarded' "$TEST_TMP/demo.txt.err")" 152/0 \
	"Debian 13's babeltrace2 reads the example's 152 events, none discarded"
# ltt-lttng-compat over Debian 13's own LTTng (lttng-tools 2.13.15): its
# programs, unit (/usr/lib there) and libraries diverted, then put back
# files PATH...: each as it is in the root, a link's target or a file's checksum
files() {
	in_root sh -c 'for f; do
		[ -L "$f" ] && echo "$f -> $(readlink "$f")" || echo "$f $(sha256sum <"$f" | cut -c1-16)"
	done' sh "$@"
}
LTTNG_FILES="/usr/bin/lttng /usr/bin/lttng-sessiond /usr/bin/lttng-relayd /usr/bin/lttng-crash
	/usr/lib/systemd/system/lttng-sessiond.service"
# compat_on WHOSE LOG: ltt-lttng-compat installed over WHOSE LTTng (its
# files kept first); compat_off: removed, and LTTNG_FILES back as they were
compat_on() {
	# shellcheck disable=SC2086
	before=$(files $LTTNG_FILES)
	compat_log=$2
	in_root env DEBIAN_FRONTEND=noninteractive dpkg -i "$TEST_TMP/ltt-lttng-compat_${VER}_$ARCH.deb" \
		>"$compat_log" 2>&1
	ok $? "dpkg -i ltt-lttng-compat over $1 LTTng" || tail -n 20 "$compat_log" | sed 's/^/# /'
}
compat_off() {
	in_root dpkg -r ltt-lttng-compat >>"$compat_log" 2>&1
	is "$?:$(in_root dpkg-divert --list | grep -c ltt-lttng-compat)" 0:0 "dpkg -r ltt-lttng-compat ($1): no diversion left"
	# shellcheck disable=SC2086
	is "$(files $LTTNG_FILES)" "$before" "every one of $1 LTTng files is back as it was"
}
compat_on "Debian 13's" "$TEST_TMP/compat.log"
is "$(in_root sh -c 'cd /usr/bin && readlink lttng lttng-sessiond lttng-relayd lttng-crash; readlink /usr/lib/systemd/system/lttng-sessiond.service' | tr '\n' ' ')" \
	"lttctl ltt-sessiond ltt-relayd ltt-crash ltt-sessiond.service " \
	"lttng, lttng-sessiond, lttng-relayd, lttng-crash are ltt's, and lttng-sessiond.service in /usr/lib an alias of ltt's unit"
like "$(in_root dpkg-divert --list)" "diversion of /usr/lib/systemd/system/lttng-sessiond.service to /usr/lib/systemd/system/lttng-sessiond.service.distrib by ltt-lttng-compat" \
	"Debian 13's unit diverted where Debian 13 puts it"
compat_off "Debian 13's"

in_root env DEBIAN_FRONTEND=noninteractive dpkg --purge libltt-ctl-dev libltt-ust-dev python3-ltt \
	ltt-tools libltt-ctl1 libltt-ust0 >"$TEST_TMP/remove.log" 2>&1
ok $? "dpkg --purge removes them" || tail -n 20 "$TEST_TMP/remove.log" | sed 's/^/# /'
is "$(in_root sh -c 'ls /usr/bin | grep -cE "^(lttctl|ltt-)"; ls /usr/lib/*/libltt-* 2>/dev/null | wc -l')" "0
0" "... their programs and libraries gone (Debian's lttng-tools stays)"

# --- the same packages on a sid host with LTTng 2.16 (the sid root's
# lttng-tools and liblttng-ust, in an overlay of that root): installed
# beside it, ltt-lttng-compat takes its place, sid's own lttng 2.16
# client drives ltt's daemon, a program built with LTTng-UST 2.16's
# headers records through ltt's liblttng-ust.so.1, and removing it gives
# LTTng 2.16 back
NSID=8
if SID=$("$LTT_TOP_SRCDIR/scripts/debian-root.sh" sid "$ROOT_PKGS" 2>"$TEST_TMP/sid.err"); then
	ROOT=$SID ROOT_OVERLAY=$TEST_TMP/sid-overlay ROOT_RUN=$TEST_TMP/sid-run
	LTTNG_FILES="$LTTNG_FILES /usr/lib/x86_64-linux-gnu/liblttng-ust.so.1
		/usr/lib/x86_64-linux-gnu/liblttng-ust.so.1.0.0"
	cp "$LTT_TOP_SRCDIR"/tests/regression/lttng-ust/{blob_app.c,blob_tp.h} "$TEST_TMP/"
	# sid moves daily: the root's package lists are brought up to date
	# first (a mirror kept as of a day has a Release past its Valid-Until)
	# shellcheck disable=SC2086
	in_root sh -c 'printf "#!/bin/sh\nexit 101\n" >/usr/sbin/policy-rc.d && chmod 0755 /usr/sbin/policy-rc.d &&
		cd "$1" && cc -I. -o blob_app blob_app.c -llttng-ust -ldl' sh "$TEST_TMP" &&
		root_apt_install "$TEST_TMP/sid-install.log" $debs
	ok $? "apt installs them on sid beside LTTng 2.16, their dependencies met by sid's packages" ||
		tail -n 20 "$TEST_TMP/sid-install.log" | sed 's/^/# /'
	like "$(in_root lttng --version)" "2\\.16\\." "... whose lttng is LTTng 2.16's"
	compat_on "sid's" "$TEST_TMP/sid-compat.log"
	is "$(in_root sh -c 'cd /usr/bin && readlink lttng lttng-sessiond; readlink /usr/lib/x86_64-linux-gnu/liblttng-ust.so.1' | tr '\n' ' ')" \
		"lttctl ltt-sessiond ltt/lttng-ust/liblttng-ust.so.1.0.0 " \
		"lttng, lttng-sessiond and liblttng-ust.so.1 are ltt's"
	# ltt's daemon by LTTng's name (--lttng-compat), driven by sid's own
	# lttng 2.16 (diverted to lttng.distrib); blob_app's 2 x 60 events
	in_root env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root sh -c '
		set -e
		lttng-sessiond &
		sd=$!
		i=0
		while [ ! -S /run/lttng/client-lttng-sessiond ] && [ $i -lt 300 ] && kill -0 $sd; do
			sleep 0.1
			i=$((i + 1))
		done
		lttng.distrib create s16 -o "$1/s16"
		lttng.distrib enable-event -u "t16:*" -s s16
		lttng.distrib start s16
		"$1/blob_app" 60
		lttng.distrib stop s16
		lttng.distrib destroy s16
		kill $sd
		wait $sd' sh "$TEST_TMP" >"$TEST_TMP/sid-demo.log" 2>&1
	ok $? "sid's lttng 2.16 drives ltt's lttng-sessiond; blob_app (LTTng-UST 2.16's headers) ran on ltt's library" ||
		tail -n 20 "$TEST_TMP/sid-demo.log" | sed 's/^/# /'
	bt21 "$TEST_TMP/s16" "$TEST_TMP/s16.txt"
	is "$(grep -c ' t16:' "$TEST_TMP/s16.txt")" 120 "babeltrace2 2.1 reads its 120 events from ltt's trace"
	compat_off "sid's"
else
	skip $NSID "no Debian sid root: $(tail -n 1 "$TEST_TMP/sid.err")"
fi
done_testing
