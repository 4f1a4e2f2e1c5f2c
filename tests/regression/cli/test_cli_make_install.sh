#!/bin/bash
# make install DESTDIR=TMP from the build tree, as a packager or a user
# would run it: every program, library, header, man page (of each program
# and each lttctl command), systemd unit and pkg-config file lands where
# configure said, under TMP; the kernel module (when the build made one)
# under TMP/lib/modules/RELEASE/extra for the kernel it was built for,
# indexed by depmod -b TMP.  Then the demo (README, scripts/demo.sh) runs
# from the installed programs only: create, enable-event -u, start, the
# bundled example built from the installed header and library, stop, view.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
command -v make >/dev/null || skip_all "no make"
B=$LTT_TOP_BUILDDIR
DEST="$TEST_TMP/dest"
# The installs' own make, not the make check that runs this test.
tmake() {
	timeout 600 env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make "$@"
}

# var NAME: a variable of the build's Makefile, as make expands it.
# shellcheck disable=SC2016
printf 'ltt-print-vars:\n\t@$(foreach v,$(VARS),echo '"'"'$(v)=$($(v))'"'"';)\n' >"$TEST_TMP/vars.mk"
tmake -s -C "$B" -f Makefile -f "$TEST_TMP/vars.mk" ltt-print-vars \
	VARS='bin_PROGRAMS ltt_libexec_PROGRAMS lib_LTLIBRARIES pkgconfig_DATA pkginclude_HEADERS
		systemdsystemunit_DATA bindir libdir mandir includedir pkgconfigdir ltt_libexecdir
		systemdsystemunitdir docdir bashcompletiondir sysusersdir KERNELDIR LTT_PYTHON_DIR
		pkglibdir' >"$TEST_TMP/vars" ||
	{ echo "Bail out! can't read the build's Makefile variables"; exit 1; }
var() {
	sed -n "s/^$1=//p" "$TEST_TMP/vars"
}

run tmake -C "$B" install DESTDIR="$DEST"
ok "$RC" "make install DESTDIR=$DEST: exit 0"
[ "$RC" = 0 ] || diag "$(tail -20 <<<"$OUT")"
INSTALL_OUT=$OUT
unlike "$INSTALL_OUT" 'depmod: ERROR|SSL error|sign-file|System\.map' \
	"no depmod or module signing complaint in its output"

# --- programs, libraries, headers
bindir=$DEST$(var bindir) libdir=$DEST$(var libdir) mandir=$DEST$(var mandir)
progs=""
for p in $(var bin_PROGRAMS); do
	progs+=" ${p##*/}"
	ok "$([ -x "$bindir/${p##*/}" ] && [ -f "$bindir/${p##*/}" ]; echo $?)" "bin: ${p##*/}"
done
for p in $(var ltt_libexec_PROGRAMS); do
	progs+=" ${p##*/}"
	ok "$([ -x "$DEST$(var ltt_libexecdir)/${p##*/}" ]; echo $?)" "libexec: ${p##*/}"
done
for l in $(var lib_LTLIBRARIES); do
	l=${l##*/}
	so=$(sed -n "s/^dlname='\(.*\)'$/\1/p" "$libdir/$l" 2>/dev/null)
	ok "$([ -n "$so" ] && [ -f "$libdir/$so" ] && [ -L "$libdir/${l%.la}.so" ]; echo $?)" \
		"lib: ${so:-${l%.la}.so.N} and its .so link"
done
# libltt-ctl's XML module (save, load), loaded from there by path
ok "$([ -f "$DEST$(var pkglibdir)/config-xml.so" ]; echo $?)" "lib: ltt/config-xml.so, the XML module"
# lttctl's TLS module (create --tls-*, view --live tls://), the same way
ok "$([ -f "$DEST$(var pkglibdir)/net-tls.so" ]; echo $?)" "lib: ltt/net-tls.so, the TLS module"
for h in $(var pkginclude_HEADERS); do
	ok "$(cmp -s "$LTT_TOP_SRCDIR/$h" "$DEST$(var includedir)/ltt/${h##*/}"; echo $?)" \
		"header: ltt/${h##*/}"
done
# Moved trees: --define-prefix takes the prefix from where the .pc file
# is, so every directory in it must follow ${prefix}.
PKG_CONFIG_PATH="$DEST$(var pkgconfigdir)"
export PKG_CONFIG_PATH
for pc in $(var pkgconfig_DATA); do
	pc=${pc##*/}
	ok "$([ -s "$DEST$(var pkgconfigdir)/$pc" ]; echo $?)" "pkg-config: $pc"
	if command -v pkg-config >/dev/null; then
		run pkg-config --define-prefix --cflags --libs "${pc%.pc}"
		like "$OUT" "^-I$DEST$(var includedir) (-I[^ ]+ )*-L$DEST$(var libdir) -l${pc%.pc} *\$" \
			"pkg-config --define-prefix ${pc%.pc}: the moved tree's directories"
	else
		skip 1 "no pkg-config"
	fi
done

# --- man pages: each program, each lttctl command
for p in $progs; do
	ok "$(ls "$mandir"/man[18]/"$p".[18] >/dev/null 2>&1; echo $?)" "man page of $p"
done
cmds=$("$bindir/lttctl" --list-commands 2>/dev/null)
[ -n "$cmds" ] || cmds=$("$LTTCTL_BIN" --list-commands)
missing=""
for c in $cmds; do
	[ -s "$mandir/man1/lttctl-$c.1" ] || missing+=" $c"
done
is "$missing" "" "a man page for each of the $(wc -w <<<"$cmds") lttctl commands"

# --- systemd units, sysusers, completion
unitdir=$DEST$(var systemdsystemunitdir)
for u in $(var systemdsystemunit_DATA); do
	u=${u##*/}
	run grep -c "^ExecStart=$(var bindir)/${u%.service} *" "$unitdir/$u"
	is "$OUT" 1 "unit $u: ExecStart runs the installed ${u%.service}"
	unlike "$(cat "$unitdir/$u" 2>&1)" '@[a-z_]+@' "unit $u: nothing left unsubstituted"
done
ok "$([ -s "$DEST$(var sysusersdir)/ltt.conf" ]; echo $?)" "sysusers.d/ltt.conf"
ok "$([ -s "$DEST$(var bashcompletiondir)/lttctl" ]; echo $?)" "bash completion of lttctl"

# --- the kernel module, for the kernel it was built for
ko="$B/kmod/ltt-tracer.ko"
PATH=$PATH:/sbin:/usr/sbin
if [ -n "$(var KERNELDIR)" ] && [ -f "$ko" ] && command -v modinfo >/dev/null; then
	rel=$(modinfo -F vermagic "$ko" | cut -d' ' -f1)
	mdir="$DEST/lib/modules/$rel"
	ok "$([ -f "$mdir/extra/ltt-tracer.ko" ]; echo $?)" \
		"the module is in lib/modules/$rel/extra (its vermagic's release)"
	is "$(ls "$DEST/lib/modules")" "$rel" "and in no other release's directory"
	like "$(cat "$mdir/modules.dep" 2>&1)" '^extra/ltt-tracer\.ko:' \
		"depmod -b DESTDIR indexed it (modules.dep)"
	like "$(cat "$mdir/modules.dep" 2>&1)" '(^|
)extra/lttng-test\.ko: extra/ltt-tracer\.ko' \
		"and lttng-test.ko, which needs ltt-tracer.ko"
	like "$INSTALL_OUT" "kmod: installed $mdir/extra/ltt-tracer.ko \\(for kernel $rel\\)" \
		"make install says where the module went"
	# As another user, into a tree of theirs: installed and indexed, no depmod failure.
	if can_switch_user; then
		nobody_dir "$TEST_TMP/nobody"
		chmod 755 "$TEST_TMP/nobody"
		run as_nobody env DESTDIR="$TEST_TMP/nobody/root" sh \
			"$LTT_TOP_SRCDIR/kmod/scripts/ltt-kmod-install.sh" install "$(var KERNELDIR)" "$ko"
		is "$RC" 0 "not root, DESTDIR: the module installs (exit 0)"
		like "$(cat "$TEST_TMP/nobody/root/lib/modules/$rel/modules.dep" 2>&1)" \
			'^extra/ltt-tracer\.ko:' "not root, DESTDIR: depmod -b indexed it"
	else
		skip 2 "not root: can't install as another user"
	fi
else
	skip 7 "no kernel module built (or no modinfo)"
fi

# --- make uninstall leaves no program, library or man page behind
cp -a "$DEST" "$TEST_TMP/dest2"
run tmake -C "$B" uninstall DESTDIR="$TEST_TMP/dest2"
ok "$RC" "make uninstall DESTDIR: exit 0"
is "$(find "$TEST_TMP/dest2" -type f ! -path '*/lib/modules/*/modules.*' | sed "s|^$TEST_TMP/dest2||")" "" \
	"make uninstall removes every file make install put there"
rm -rf "$TEST_TMP/dest2"

# --- the demo, from the installed programs only
export LD_LIBRARY_PATH="$libdir"
export LTT_SESSIOND_PATH="$bindir/ltt-sessiond"
LTT_CONSUMERD_PATH="$DEST$(var ltt_libexecdir)/ltt-consumerd"
export LTT_CONSUMERD_PATH
# (the installed programs would load $(pkglibdir)/config-xml.so and
# net-tls.so: they are under DESTDIR)
export LTT_CONFIG_XML_PATH="$DEST$(var pkglibdir)/config-xml.so"
export LTT_NET_TLS_PATH="$DEST$(var pkglibdir)/net-tls.so"
export LTT_UST_REGISTER_TIMEOUT=5000
like "$(ldd "$bindir/lttctl")" "libltt-ctl\\.so\\.[0-9]+ => $libdir/libltt-ctl\\.so\\.[0-9]+ " \
	"the installed lttctl runs with the installed libltt-ctl"
exdir="$DEST$(var docdir)/examples/hello"
cc_cmd=${LTT_TEST_CC:-cc}
# shellcheck disable=SC2086
# as the README says: cc app.c $(pkg-config --cflags --libs ltt-ust)
if command -v pkg-config >/dev/null; then
	pcflags=$(pkg-config --define-prefix --cflags --libs ltt-ust)
else
	pcflags="-I$DEST$(var includedir) -L$libdir -lltt-ust"
fi
# shellcheck disable=SC2086
run $cc_cmd ${LTT_TEST_CFLAGS:-} -o "$TEST_TMP/hello" "$exdir/hello.c" -I"$exdir" $pcflags
ok "$RC" "the installed example builds against the installed header and library (pkg-config)"
[ "$RC" = 0 ] || diag "$OUT"
like "$(ldd "$TEST_TMP/hello")" "libltt-ust\\.so\\.[0-9]+ => $libdir/libltt-ust\\.so\\.[0-9]+ " \
	"and runs with the installed libltt-ust"
ilttctl() {
	timeout "$TEST_TIMEOUT" "$bindir/lttctl" "$@"
}
run ilttctl create demo -o "$TEST_TMP/trace"
ok "$RC" "create (starts the installed ltt-sessiond)"
pid=$(sessiond_pid)
is "$(readlink "/proc/$pid/exe")" "$bindir/ltt-sessiond" "the daemon is the installed ltt-sessiond"
ok_cmd "enable-event -u 'hello_world:*'" ilttctl enable-event -u 'hello_world:*'
ok_cmd "start" ilttctl start
cpid=$(pgrep -P "$pid" -x ltt-consumerd | head -1)
is "$(readlink "/proc/${cpid:-0}/exe")" "$DEST$(var ltt_libexecdir)/ltt-consumerd" \
	"its consumer is the installed ltt-consumerd"
run timeout "$TEST_TIMEOUT" "$TEST_TMP/hello" 5
is "$OUT" "hello: 5 iterations" "the example runs"
ok_cmd "stop" ilttctl stop
if command -v babeltrace2 >/dev/null; then
	run ilttctl view
	ok "$RC" "view: exit 0"
	is "$(grep -c 'hello_world:my_first_tracepoint:' <<<"$STDOUT")" 5 "view: 5 my_first_tracepoint events"
	is "$(grep -c 'hello_world:odd_iteration:' <<<"$STDOUT")" 2 "view: 2 odd_iteration events"
	is "$(grep -c 'hello_world:' <<<"$STDOUT")" 9 "view: 9 hello_world events in all (starting, 5, 2, done)"
else
	skip 4 "babeltrace2 is not installed"
fi
if python_env; then
	pydir="$DEST$(var LTT_PYTHON_DIR)"
	ok "$([ -f "$pydir/ltt/__init__.py" ] && [ -f "$pydir/ltt/_ltt.abi3.so" ] &&
		[ ! -e "$pydir/ltt/_ltt.la" ]; echo $?)" "python: ltt/__init__.py and ltt/_ltt.abi3.so (no libtool archive)"
	run env "${PYENV[@]}" PYTHONPATH="$pydir" "$PYTHON3" -B -c \
		'import ltt; print(" ".join("%s:%s" % (s.name, s.channels[0].name) for s in ltt.list_sessions()))'
	is "$OUT" "demo:channel0" "python: the installed package (import ltt) lists the session, with the installed libltt-ctl"
fi
unlike "$(ldd "$bindir/lttctl")" 'libssl|libcrypto' "the installed lttctl links no libssl or libcrypto"
# the installed TLS module loads (this lttctl's version): what is wrong
# is then the certificate file, not the module
run ilttctl create tlsx --snapshot --no-output --tls-cert "$TEST_TMP/none.pem" \
	--tls-key "$TEST_TMP/none.key" --tls-ca "$TEST_TMP/none-ca.pem"
like "$RC:$ERR" "^1:Error: TLS certificate '$TEST_TMP/none.pem' can't be used: .*; nothing was created" \
	"create --tls-* with the installed TLS module: the missing certificate is named"
run ilttctl save demo -o "$TEST_TMP/saved"
ok "$RC" "save (the installed XML module)"
like "$(cat "$TEST_TMP/saved/demo.lttng" 2>&1)" '<name>demo</name>' "save wrote demo.lttng"
ok_cmd "destroy" ilttctl destroy
run ilttctl load -i "$TEST_TMP/saved"
ok "$RC" "load"
like "$(ilttctl list 2>&1)" 'demo' "load made the session again"
ok_cmd "destroy the loaded session" ilttctl destroy demo
kill -TERM "$pid" && wait_pid_exit "$pid"
ok $? "the installed daemon stops on SIGTERM"

done_testing
