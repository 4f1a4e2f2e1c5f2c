#!/bin/bash
# test_lttng_compat_save.sh - `lttng save` (Debian's /usr/bin/lttng, LTTng
# 2.13's SAVE_SESSION) on ltt-sessiond --lttng-compat: the daemon writes
# the session in LTTng's format, valid against LTTng's session.xsd, where
# LTTng's daemon writes it (-o DIR: DIR/NAME.lttng; none: every session of
# the client's in the daemon's home's .lttng/sessions: its $LTT_HOME,
# $LTTNG_HOME or $HOME, the client's own for a user's daemon), refuses to replace a file
# without --force, says a missing session is missing; and `lttng load`
# of the file gives the session back as it was (lttng list and lttctl
# list the same channels, rules and contexts).  The root daemon keeps
# root's rights here (--privsep-user=root), and saves itself; one that
# gives them up has its privileged part save (test_lttng_compat.sh).  As root in its own mount
# namespace (/var/run/lttng), as test_lttng_compat.sh.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

compat_private_run "$0" "$@"
ust_setup --log --lttng-compat --privsep-user=root
export LTTNG_HOME="$TEST_TMP/lttng-home"
mkdir -p "$LTTNG_HOME"
plan 21

LTTNG=/usr/bin/lttng
lttng() { timeout "$TEST_TIMEOUT" "$LTTNG" "$@"; }
XSD=/usr/share/xml/lttng/session.xsd
SAVED="$TEST_TMP/saved"

# a session with what a saved one holds: a channel's attributes, rules
# (a filter, an exclusion, a log level), contexts
lttng create sv -o "$TEST_TMP/sv-trace" >/dev/null
lttng enable-channel -u ch --subbuf-size 16k --num-subbuf 8 --switch-timer 200000 >/dev/null
lttng enable-event -u 'compat:*' -c ch --filter 'intfield > 1' -x compat:basic >/dev/null
lttng enable-event -u lvl:ev -c ch --loglevel TRACE_WARNING >/dev/null
lttng add-context -u -t vpid -t procname -c ch >/dev/null
lttctl create other -o "$TEST_TMP/other-trace" >/dev/null
lttctl enable-event -u 'other:*' -s other >/dev/null

run lttng save sv -o "$SAVED"
ok $RC "lttng save sv -o DIR" || diag "$OUT" "$(tail -5 "$SESSIOND_LOG")"
like "$STDOUT" "Session sv saved successfully in $SAVED" "... and lttng says where"
is "$(cd "$SAVED" 2>/dev/null && ls)" "sv.lttng" "... one file, DIR/sv.lttng, as LTTng's daemon names it"
F="$SAVED/sv.lttng"
is "$(mi_xp '/sessions/session/name' "$F"):$(mi_xp 'count(//channel)' "$F"):$(mi_xp '//channel/subbuffer_size' "$F"):$(mi_xp '//channel/subbuffer_count' "$F")" \
	"sv:1:16384:8" "... holding the session, its channel and its attributes"
is "$(mi_xp 'count(//event)' "$F"):$(mi_xp "//event[name='compat:*']/filter" "$F"):$(mi_xp "//event[name='compat:*']/exclusions/exclusion" "$F")" \
	"2:intfield > 1:compat:basic" "... its two rules, the filter and the exclusion"
is "$(mi_xp 'count(//context)' "$F"):$(mi_xp '//context[1]/type' "$F"):$(mi_xp '//context[2]/type' "$F")" \
	"2:VPID:PROCNAME" "... and its contexts"
if command -v xmllint >/dev/null && [ -f "$XSD" ]; then
	is "$(xmllint --noout --schema "$XSD" "$F" 2>&1)" "$F validates" \
		"... valid against LTTng 2.13's session.xsd"
else
	skip 1 "no xmllint or no LTTng session.xsd ($XSD)"
fi
cp "$F" "$TEST_TMP/first.lttng"

# --- an existing file: refused without --force, replaced with it ---
lttng enable-event -u late:ev -c ch >/dev/null
run lttng save sv -o "$SAVED"
like "$RC:$OUT" "^[1-9][0-9]*:.*Session file already exists" "lttng save again: LTTng's SAVE_FILE_EXIST"
is "$(cmp -s "$F" "$TEST_TMP/first.lttng" && echo same)" same "... and the file is as it was"
run lttng save -f sv -o "$SAVED"
ok $RC "lttng save -f: replaces it" || diag "$OUT"
is "$(mi_xp 'count(//event)' "$F")" 3 "... with the rule added since"

# --- no session named: every session of the client's, in the default directory ---
run lttng save
ok $RC "lttng save (every session, the default directory)" || diag "$OUT"
is "$(cd "$HOME/.lttng/sessions" 2>/dev/null && ls | tr '\n' ' ')" "other.lttng sv.lttng " \
	"... the daemon's home's .lttng/sessions/NAME.lttng, lttctl's session too"
run lttng save nosuch -o "$SAVED"
like "$RC:$OUT" "^[1-9][0-9]*:.*ession (name )?not found" "lttng save of a session that does not exist: LTTng's SESS_NOT_FOUND"
ok "$([ ! -e "$SAVED/nosuch.lttng" ] && echo 0 || echo 1)" "... and no file"

# --- lttng load gives the session back ---
lttng list sv >"$TEST_TMP/before.txt" 2>&1
lttctl list sv >"$TEST_TMP/before-ltt.txt" 2>&1
lttng destroy sv >/dev/null
run lttng load -i "$SAVED" sv
ok $RC "lttng load -i DIR sv" || diag "$OUT"
lttng list sv >"$TEST_TMP/after.txt" 2>&1
is "$(diff "$TEST_TMP/before.txt" "$TEST_TMP/after.txt" && echo same)" same \
	"lttng list: the same session, channel, rules and contexts as before the save" ||
	diag "$(diff "$TEST_TMP/before.txt" "$TEST_TMP/after.txt")"
like "$(cat "$TEST_TMP/after.txt")" "compat:\\* \\(type: tracepoint\\) \\[enabled\\] \\[exclusions: compat:basic\\] \\[filter: 'intfield > 1'\\]" \
	"... its exclusion and filter among them"
lttctl list sv >"$TEST_TMP/after-ltt.txt" 2>&1
is "$(diff "$TEST_TMP/before-ltt.txt" "$TEST_TMP/after-ltt.txt" && echo same)" same \
	"lttctl list: the same too" || diag "$(diff "$TEST_TMP/before-ltt.txt" "$TEST_TMP/after-ltt.txt")"
like "$(cat "$TEST_TMP/after-ltt.txt")" "vpid" "... the contexts included"
like "$(cat "$SESSIOND_LOG")" "SAVE_SESSION \\(31\\) -> 85" \
	"the daemon's log: the refused save, by LTTng's code"

