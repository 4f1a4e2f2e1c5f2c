#!/bin/bash
# test_saveload_xml_module.sh - libxml2 only where XML is used: lttctl's ordinary
# commands (create, enable-event, start, stop, list, status, destroy,
# --mi xml) load no libxml2 (nor the ICU, liblzma, libstdc++ it brings),
# neither do the session daemon, nor `import ltt` listing sessions; save
# and load load it through the XML module (config-xml.so, which the
# check must see, or it would see nothing); and with the module missing
# or another file in its place, save and load fail with CONFIG_MODULE,
# naming the file and why, and change nothing.
#
# What a process loaded: the dynamic loader's own list of the objects it
# opens (loaded_objects, LD_DEBUG=files, dlopen() included), and a
# running daemon's /proc/PID/maps.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
export LTT_CONSUMERD_PATH="$LTT_TOP_BUILDDIR/src/consumerd/ltt-consumerd"
MODULE=$LTT_CONFIG_XML_PATH
HEAVY='libxml2|libicu|liblzma|libstdc\+\+'
[ -f "$MODULE" ] || { echo "Bail out! $MODULE not built"; exit 1; }

# shellcheck disable=SC2119
start_sessiond || { echo "Bail out! ltt-sessiond did not start"; exit 1; }

# --- the ordinary commands
objs=""
for cmd in "--version" "create s1 -o $TEST_TMP/trace" "enable-event -u -a" \
	"enable-channel -u c2" "start" "list" "list s1" "status" "--mi xml list s1" "stop"; do
	# shellcheck disable=SC2086
	o=$(loaded_objects "$LTTCTL_BIN" $cmd)
	objs+="$o"$'\n'
	like "$o" 'libltt-ctl\.so' "lttctl $cmd: the loader's list holds libltt-ctl (the check sees it)"
	unlike "$o" "$HEAVY" "lttctl $cmd: no libxml2, ICU, liblzma or libstdc++ loaded"
done
unlike "$objs" 'config-xml' "no ordinary command loaded the XML module"
run lttctl list s1
like "$STDOUT" 'c2' "the commands did their work (list s1 shows channel c2)"
pid=$(sessiond_pid)
# (liblzma is libkmod's, the daemon's own: not looked for there)
unlike "$(cat "/proc/$pid/maps")" 'libxml2|libicu|config-xml' \
	"the running session daemon (a session started) maps no libxml2, ICU or XML module"

# --- save and load do load it
o=$(loaded_objects "$LTTCTL_BIN" save s1 -o "$TEST_TMP/saved")
like "$o" 'config-xml\.so' "save loads the XML module"
like "$o" 'libxml2' "and libxml2 with it (the check sees a libxml2 loaded)"
ok "$([ -s "$TEST_TMP/saved/s1.lttng" ]; echo $?)" "save wrote s1.lttng"
lttctl -q destroy s1
o=$(loaded_objects "$LTTCTL_BIN" load -i "$TEST_TMP/saved")
like "$o" 'config-xml\.so' "load loads the XML module"
run lttctl list s1
like "$STDOUT" 'c2' "load made s1 again, with its channel c2"

# --- import ltt
if python_env && [ -f "$LTT_TOP_BUILDDIR/src/python/.libs/_ltt.so" ]; then
	mkdir -p "$TEST_TMP/py/ltt"
	ln -s "$LTT_TOP_SRCDIR/src/python/ltt/__init__.py" "$TEST_TMP/py/ltt/__init__.py"
	ln -s "$LTT_TOP_BUILDDIR/src/python/.libs/_ltt.so" "$TEST_TMP/py/ltt/_ltt.so"
	run env "${PYENV[@]}" PYTHONPATH="$TEST_TMP/py" \
		LD_LIBRARY_PATH="$LTT_TOP_BUILDDIR/src/lib/ltt-ctl/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		timeout "$TEST_TIMEOUT" "$PYTHON3" -B -c 'import ltt
print(" ".join(s.name for s in ltt.list_sessions()))
print(open("/proc/self/maps").read())'
	like "$STDOUT" '^s1$' "import ltt lists the sessions (s1)"
	like "$STDOUT" 'libltt-ctl\.so' "its process maps libltt-ctl"
	# (in a sanitizer build PYENV preloads the ASan runtime, which needs libstdc++)
	heavy=$HEAVY
	[ ${#PYENV[@]} -eq 0 ] || heavy='libxml2|libicu|liblzma'
	unlike "$STDOUT" "$heavy|config-xml" "and no libxml2, ICU, liblzma, libstdc++ (but the ASan runtime's) or XML module"
else
	skip 3 "configured without the Python package"
fi

# --- the module missing, or another file in its place
lttctl -q destroy s1
snapshot() { ls -R "$TEST_TMP/saved" "$HOME/.ltt" "$HOME/.lttng" 2>&1; lttctl list 2>&1; }
before=$(snapshot)
for bad in $(bad_modules config-xml.so "$MODULE"); do
	why=$(bad_module_why "$bad" XML ltt_cfg_xml_module)
	export LTT_CONFIG_XML_PATH=$bad
	run lttctl save -o "$TEST_TMP/saved2"
	is "$RC" 1 "save, module $bad: exit 1"
	like "$ERR" "^Error: save: $bad: $why: save and load need ltt's XML module" \
		"save: the error names the file, why, and what to do"
	like "$ERR" 'reinstall ltt, or set LTT_CONFIG_XML_PATH' "save: what to do"
	ok "$([ ! -e "$TEST_TMP/saved2" ]; echo $?)" "save wrote nothing"
	run lttctl load -i "$TEST_TMP/saved"
	is "$RC" 1 "load, module $bad: exit 1"
	like "$ERR" "^Error: load: $bad: $why: save and load need ltt's XML module" \
		"load: the error names the file and why"
	run lttctl --mi xml load -i "$TEST_TMP/saved"
	like "$STDOUT" '<success>false</success>' "--mi xml load: LTTng's document says it failed"
	like "$ERR" "^Error: load: $bad: $why: save and load need ltt's XML module" \
		"--mi xml load: why, on stderr"
	is "$(snapshot)" "$before" "nothing saved, loaded or created"
done
export LTT_CONFIG_XML_PATH=$MODULE
run lttctl load -i "$TEST_TMP/saved"
is "$RC" 0 "the module back: the same load works"

done_testing
