#!/bin/bash
# Every command and option is documented where a user looks for it.  The
# commands come from lttctl itself (--list-commands, checked against
# 'lttctl help'), so a command added later is checked without touching
# this test:
# - each command has man/lttctl-NAME.1, and 'make install' installs it
#   (install-man into a DESTDIR);
# - each option 'lttctl NAME --help' shows, long and short form, is a tag
#   of the OPTIONS section of that page, and --list-options lists the same
#   options as --help;
# - each global option ('lttctl --help') is in lttctl(1)'s OPTIONS;
# - each option of ltt-sessiond, ltt-consumerd and ltt-relayd's --help is
#   in the OPTIONS of their page (section 8);
# - doc/cli.md has an entry for each command that names each of its
#   options, long and short, and lists every global option;
# - the bash completion is installed.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
MAN="$LTT_TOP_SRCDIR/man"
CLI_MD="$LTT_TOP_SRCDIR/doc/cli.md"

# help_options TEXT: the options of a --help text, one per line: from the
# lines "  -s, --session=NAME", "      --live[=US]", "  -e CMD".
help_options() {
	sed -nE 's/^ {2,6}(-[^-], )?(--[A-Za-z0-9][A-Za-z0-9-]*)?.*/\1 \2/p; s/^ {2,6}(-[^-]) [A-Z].*/\1/p' <<<"$1" |
		tr -d ',' | tr ' ' '\n' | grep -E '^-' | grep -vxF -- '-' | sort -u
}

# man_options PAGE: the options named in the tags (the line after .TP) of
# the page's OPTIONS section, troff escapes removed, one per line.
man_options() {
	awk '
		/^\.SH/ { in_opts = ($0 ~ /^\.SH +"?OPTIONS"?$/); next }
		in_opts && tag { print; tag = 0; next }
		in_opts && /^\.T[PQ]/ { tag = 1 }
	' "$1" | sed -E 's/\\f[BIRP]//g; s/\\-/-/g; s/\\\(..//g; s/\\&//g; s/^\.[A-Z]+ //; s/"//g' |
		grep -oE '(^|[^A-Za-z0-9-])--?[A-Za-z0-9][A-Za-z0-9-]*' |
		sed -E 's/^[^-]//' | sort -u
}

# md_entry NAME: the entry of command NAME in doc/cli.md's "## Commands":
# from its line "`NAME ..." to the next line that starts with a backquote
# or a heading.
md_entry() {
	awk -v name="$1" '
		/^## / { in_cmds = ($0 == "## Commands"); on = 0; next }
		!in_cmds { next }
		/^`/ { on = (index($0, "`" name " ") == 1 || index($0, "`" name "`") == 1) }
		on { print }
	' "$CLI_MD"
}

# md_global: doc/cli.md's "## Global options" section.
md_global() {
	awk '/^## / { on = ($0 ~ /^## Global options/); next } on { print }' "$CLI_MD"
}

# missing_in TEXT OPTIONS: the options (lines) not named in TEXT as a word
# of their own (not as the beginning of a longer option).
missing_in() {
	local text=$1 opt
	while read -r opt; do
		[ -n "$opt" ] || continue
		grep -qE -- "(^|[^A-Za-z0-9-])$opt([^A-Za-z0-9-]|\$)" <<<"$text" ||
			printf '%s\n' "$opt"
	done <<<"$2"
}

# --- the commands, from lttctl
run lttctl --list-commands
is "$RC" 0 "--list-commands exits 0"
COMMANDS=$STDOUT
ok "$([ "$(wc -l <<<"$COMMANDS")" -ge 14 ]; echo $?)" "--list-commands lists the commands ($(wc -l <<<"$COMMANDS"))"
unlike "$COMMANDS" '[^a-z0-9-]' "--list-commands prints one name per line, nothing else"
from_help=$(lttctl help | sed -nE '/^Commands:/,/^$/s/^  ([a-z0-9-]+) .*/\1/p')
is "$from_help" "$COMMANDS" "'lttctl help' lists the same commands, in the same order"

# --- 'make install' installs the pages and the completion
DEST="$TEST_TMP/dest"
out=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	make -s -C "$LTT_TOP_BUILDDIR" install-man install-dist_bashcompletionDATA \
	DESTDIR="$DEST" 2>&1)
ok $? "make install-man install-dist_bashcompletionDATA DESTDIR=..." || diag "$out"
man1=$(find "$DEST" -type d -name man1 | head -1)
man8=$(find "$DEST" -type d -name man8 | head -1)
ok "$([ -n "$man1" ] && [ -f "$man1/lttctl.1" ]; echo $?)" "lttctl.1 is installed"
# (the only file named lttctl these two targets install; its directory is
# configure's choice, --with-bash-completion-dir)
compl=$(find "$DEST" -type f -name lttctl)
ok "$([ -n "$compl" ] && cmp -s "$compl" "$LTT_TOP_SRCDIR/extras/bash-completion/lttctl"; echo $?)" \
	"the bash completion is installed"

# --- each command: its page, its options in the page and in doc/cli.md
for cmd in $COMMANDS; do
	page="lttctl-$cmd.1"
	ok "$([ -f "$MAN/$page" ]; echo $?)" "$cmd: man/$page exists"
	ok "$([ -n "$man1" ] && cmp -s "$man1/$page" "$MAN/$page"; echo $?)" "$cmd: make install installs $page"
	run lttctl "$cmd" --help
	is "$RC" 0 "$cmd --help exits 0"
	opts=$(help_options "$STDOUT")
	ok "$([ -n "$opts" ]; echo $?)" "$cmd --help shows options (at least --help)"
	run lttctl "$cmd" --list-options
	listed=$(sort -u <<<"$STDOUT")
	is "$listed" "$opts" "$cmd --list-options lists the options of $cmd --help"
	if [ -f "$MAN/$page" ]; then
		miss=$(missing_in "$(man_options "$MAN/$page")" "$opts")
		is "$(echo $miss)" "" "$cmd: every option of --help is in the OPTIONS of $page"
	fi
	entry=$(md_entry "$cmd")
	ok "$([ -n "$entry" ]; echo $?)" "$cmd: doc/cli.md has an entry for it"
	miss=$(missing_in "$entry" "$(grep -vxE -- '-h|--help' <<<"$opts")")
	is "$(echo $miss)" "" "$cmd: doc/cli.md's entry names each of its options"
	like "$(sed -n "/^\\.SH COMMANDS/,/^\\.SH [^C]/p" "$MAN/lttctl.1" 2>/dev/null)" "^\\.BR lttctl\\\\-${cmd//-/\\\\-} \\(1\\)" \
		"$cmd: lttctl(1) lists it under COMMANDS"
	like "$(sed -n '/^\.SH "SEE ALSO"/,$p' "$MAN/lttctl.1" 2>/dev/null)" "^\\.BR lttctl\\\\-${cmd//-/\\\\-} \\(1\\)" \
		"$cmd: lttctl(1) lists it under SEE ALSO"
done

# --- the global options
run lttctl --help
gopts=$(help_options "$STDOUT")
ok "$([ "$(wc -l <<<"$gopts")" -ge 10 ]; echo $?)" "lttctl --help shows the global options"
run lttctl --list-options
is "$(sort -u <<<"$STDOUT")" "$gopts" "lttctl --list-options lists the options of lttctl --help"
miss=$(missing_in "$(man_options "$MAN/lttctl.1")" "$gopts")
is "$(echo $miss)" "" "every global option is in the OPTIONS of lttctl.1"
miss=$(missing_in "$(md_global)" "$gopts")
is "$(echo $miss)" "" "every global option is in doc/cli.md's Global options"
like "$(man_options "$MAN/lttctl.1")" '^--list-options$' \
	"lttctl.1 documents the --list-options every command takes"

# --- the daemons
for prog in sessiond/ltt-sessiond consumerd/ltt-consumerd relayd/ltt-relayd; do
	name=${prog#*/}
	run timeout "$TEST_TIMEOUT" "$LTT_TOP_BUILDDIR/src/$prog" --help
	is "$RC" 0 "$name --help exits 0"
	opts=$(help_options "$STDOUT")
	ok "$([ "$(wc -l <<<"$opts")" -ge 4 ]; echo $?)" "$name --help shows its options"
	miss=$(missing_in "$(man_options "$MAN/$name.8")" "$opts")
	is "$(echo $miss)" "" "$name: every option of --help is in the OPTIONS of $name.8"
	like "$(sed -n '/^\.SH "SEE ALSO"/,$p' "$MAN/lttctl.1")" "^\\.BR ${name//-/\\\\-} \\(8\\)" \
		"$name: lttctl(1) lists it under SEE ALSO"
	ok "$([ -n "$man8" ] && cmp -s "$man8/$name.8" "$MAN/$name.8"; echo $?)" \
		"$name: make install installs $name.8"
done

done_testing
