#!/bin/bash
# test_cli_mi_schema.sh - the schema `make install` puts in
# $(datadir)/ltt/xml (mi.xsd, which imports lttng-mi.xsd for LTTng's
# namespace) validates what lttctl --mi xml writes: installed into a
# DESTDIR of its own (the build's install-dist_ltt_xmlDATA), it takes the
# documents of a session's life (create, enable-channel, enable-event,
# add-context, list, list -u, start, stop, snapshot record, rotate,
# destroy), of list-triggers and version, each in LTTng's namespace, and
# ltt's own (help); and it rejects what is not one: an unknown element, a
# value of the wrong type, a missing <success>, an unknown command name.
# test_cli_mi.sh checks every command's document against both LTTng's
# schema and this one (lib.sh's mi_valid).
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
command -v xmllint >/dev/null || skip_all "xmllint is not installed (libxml2-utils; scripts/deps.sh)"
command -v make >/dev/null || skip_all "no make"
plan 38

DEST="$TEST_TMP/dest"
run timeout 120 env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	make -s -C "$LTT_TOP_BUILDDIR" install-dist_ltt_xmlDATA DESTDIR="$DEST"
ok "$RC" "make install-dist_ltt_xmlDATA DESTDIR=..." || diag "$OUT"
XSD=$(find "$DEST" -path '*/ltt/xml/mi.xsd' | head -1)
ok "$([ -n "$XSD" ] && [ -f "$(dirname "$XSD")/lttng-mi.xsd" ] && echo 0 || echo 1)" \
	"mi.xsd and lttng-mi.xsd installed side by side in \$(datadir)/ltt/xml"
DOC="$TEST_TMP/doc.xml"

# valid DESC ARGS...: lttctl --mi xml ARGS exits 0 and its document
# validates against the installed schema.
valid() {
	local desc=$1
	shift
	run lttctl --mi xml "$@"
	printf '%s\n' "$STDOUT" >"$DOC"
	is "$RC:$(xmllint --noout --schema "$XSD" "$DOC" 2>&1)" "0:$DOC validates" \
		"$desc: validates against the installed mi.xsd" || diag "$ERR" "$STDOUT"
	grep -q '<command xmlns="https://lttng.org/xml/ns/lttng-mi"' "$DOC"
	ok $? "$desc: ... in LTTng's namespace"
}

valid "version" version
sessiond_or_bail
valid "create" create s -o "$TEST_TMP/s"
valid "enable-channel" enable-channel -u ch --subbuf-size 16k -s s
valid "enable-event" enable-event -u 'ltt_test:*' -c ch -s s --filter 'intfield > 1'
valid "add-context" add-context -u -t vpid -t procname -c ch -s s
valid "list" list
valid "list SESSION" list s
valid "list -u" list -u
valid "start" start s
valid "stop" stop s
valid "rotate" rotate s
valid "destroy" destroy s
lttctl create snap --snapshot -o "$TEST_TMP/snap" >/dev/null
lttctl enable-event -u 'ltt_test:*' -s snap >/dev/null
lttctl start snap >/dev/null
valid "snapshot record" snapshot record -s snap
lttctl add-trigger --name tr --condition event-rule-matches --type=user \
	--name='ltt_test:*' --action notify >/dev/null
valid "list-triggers" list-triggers
run lttctl --mi xml help
printf '%s\n' "$STDOUT" >"$DOC"
is "$(xmllint --noout --schema "$XSD" "$DOC" 2>&1)" "$DOC validates" \
	"help (ltt's own document): validates against the same file"

# --- what is not a document of lttctl's is rejected ---
lttctl --mi xml list snap >"$TEST_TMP/good.xml"
is "$(xmllint --noout --schema "$XSD" "$TEST_TMP/good.xml" 2>&1)" "$TEST_TMP/good.xml validates" \
	"a session's list: valid as written"
# reject SED DESC: the document changed by SED is refused, naming why
reject() {
	sed "$1" "$TEST_TMP/good.xml" >"$TEST_TMP/bad.xml"
	cmp -s "$TEST_TMP/good.xml" "$TEST_TMP/bad.xml" && { ok 1 "$2: (the change applies)"; return; }
	run xmllint --noout --schema "$XSD" "$TEST_TMP/bad.xml"
	like "$RC:$OUT" "^[1-9].*$3" "$2: rejected"
}
reject 's|<enabled>true</enabled>|<enabled>yes</enabled>|' "a boolean that is not one" "not a valid value of the atomic type 'xs:boolean'"
reject 's|<subbuffer_size>\([0-9]*\)</subbuffer_size>|<subbuffer_size>-\1</subbuffer_size>|' \
	"a negative sub-buffer size" "subbuffer_size"
reject 's|<overwrite_mode>[A-Z]*</overwrite_mode>|<overwrite_mode>KEEP</overwrite_mode>|' \
	"an overwrite mode LTTng lacks" "overwrite_mode"
reject 's|<channels>|<channels><bogus>1</bogus>|' "an element ltt never writes" "bogus.*No matching global element declaration"
# (<success> may be missing: LTTng's list-trigger document has none)
reject 's|^  <name>list</name>$||' "a document without its command's name" "Expected is .*name"
reject 's|<name>list</name>|<name>lsit</name>|' "a command LTTng lacks" "lsit"
