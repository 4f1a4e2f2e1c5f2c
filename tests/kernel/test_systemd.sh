#!/bin/bash
# test_systemd.sh - ltt under a real systemd: Debian's kernel under QEMU
# boots a small Debian root (systemd as PID 1, made from Debian's packages
# by mmdebstrap) holding ltt as `make install` lays it out, its units
# enabled as a user would (systemctl enable).  The guest's checks
# (systemd/check.sh, run by systemd/ltt-check.service after the daemon's
# unit) record facts the host asserts here:
# - ltt-sessiond.service (Type=notify) is up at boot, and ready before a
#   unit ordered after it runs lttctl;
# - a member of the tracing group drives the root daemon and records a
#   program; a non-member is refused at the root daemon's socket;
# - `systemctl kill -s KILL`: systemd restarts it (Restart=on-failure) and
#   the session saved in the autoload directory is back;
# - ltt-relayd.service killed: systemd starts it again in the run
#   directory it kept, where the new relay finds the dead one's journal;
# - `systemctl stop`: the running session is flushed (every event of the
#   program in the trace, none lost), the daemon and its consumer exit
#   cleanly, the run directory is cleaned;
# - the journal has the daemon's messages.
# The Debian root is cached in the build (tests/kernel/cache); the test
# skips where QEMU, the kernel or mmdebstrap is missing, or where no
# package mirror answers (the root can't be made).
. "$LTT_TOP_SRCDIR/tests/kernel/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

kvm_init
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 is not installed"
. "$KVM_SRC/sysroot.sh"
sysd_root
plan 32

# The guest's root: Debian's, then ltt by `make install`.
R=$TEST_TMP/sysroot
sysd_unpack "$R" "$KVM_SRC/systemd/check.sh"
run timeout 600 env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$LTT_TOP_BUILDDIR" install DESTDIR="$R"
[ "$RC" = 0 ] || { echo "Bail out! make install DESTDIR=$R failed"; tail -n 20 <<<"$OUT" | sed 's/^/# /'; exit 1; }
group=$(sed -n 's/^#define LTT_TRACING_GROUP "\(.*\)"/\1/p' "$LTT_TOP_BUILDDIR/config.h")
echo "${group:-tracing}:x:900:tracer" >>"$R/etc/group"
cp "$(kvm_real_bin "$LTT_TOP_BUILDDIR/examples/hello/hello")" "$R/ltt/bin/hello"
# as an administrator enables them; no login prompt on the console
run systemctl --root="$R" enable ltt-sessiond.service ltt-check.service
[ "$RC" = 0 ] || { echo "Bail out! systemctl enable: $OUT"; exit 1; }
# the informational lines too, as doc/sessiond.md says to get them
unit=$(find "$R/usr" -path '*/systemd/system/ltt-sessiond.service' | head -1)
exec=$(sed -n 's/^ExecStart=//p' "$unit" 2>/dev/null)
[ -n "$exec" ] || { echo "Bail out! make install installed no ltt-sessiond.service"; exit 1; }
mkdir -p "$R/etc/systemd/system/ltt-sessiond.service.d"
printf '[Service]\nExecStart=\nExecStart=%s -v\n' "$exec" \
	>"$R/etc/systemd/system/ltt-sessiond.service.d/verbose.conf"
sysd_initrd "$R"

sysd_boot
diag "systemd boot and checks: ${KVM_BOOT_MS} ms"
f() {
	cat "$KVM_OUT/$1" 2>/dev/null
}

# --- at boot, ready first
is "$(f active_at_start)" active "ltt-sessiond.service is active at boot"
is "$(f unit_type)" notify "as Type=notify"
ok "$([ "$(f sessiond_ready_us)" -gt 0 ] && [ "$(f sessiond_ready_us)" -le "$(f check_start_us)" ]; echo $?)" \
	"ready (READY=1) before the unit ordered after it started ($(f sessiond_ready_us) <= $(f check_start_us) us)"
is "$(f root_list.rc)" 0 "root's lttctl list is served at once"
is "$(f sessiond_drop)" "ltt/0000000000000000" \
	"the daemon's process dropped to ltt, with no capability (the default; ltt-priv keeps root's)"

# --- the group
is "$(f t_create.rc)$(f t_enable.rc)$(f t_start.rc)$(f t_hello.rc)$(f t_stop.rc)" 00000 \
	"a tracing group member creates, enables, starts and stops a session of the root daemon"
bt "$KVM_OUT/member-trace" "$TEST_TMP/member.txt"
is "$(grep -c ' hello_world:' "$TEST_TMP/member.txt")" 152 \
	"its program's 152 events are in its trace"
is "$(f o_root.rc)" 1 "a user outside the group is refused by the root daemon"
like "$(f o_root)" "[Pp]ermission|not allowed|denied|tracing" "with the reason"

# --- SIGKILL, restart, autoload
is "$(f auto_save.rc)" 0 "a session saved in the autoload directory"
is "$(f restarted)" 0 "systemctl kill -s KILL: systemd starts the daemon again"
is "$(f nrestarts)" 1 "once (Restart=on-failure)"
like "$(f after_restart_list)" "auto1" "the autoloaded session is back"
is "$(f c_start.rc) $(f c_journals)" "0 1 0" \
	"a session started: its chunks' journal in the state directory /var/lib/ltt, none in /run/ltt"
like "$(f journal)" "session 'crashed' of a daemon that died: its traces in /var/tmp/crashed are made whole" \
	"... the restarted daemon made its traces whole from it"

# --- systemctl stop
is "$(f f_start.rc)" 0 "a session records"
like "$(f f_hello)" "hello: 1000 iterations" "the program ran"
ok "$([ -n "$(f consumer_before_stop)" ]; echo $?)" "with its consumer daemon"
is "$(f stop.rc)" 0 "systemctl stop returns"
is "$(f active_after_stop)" inactive "the daemon stopped"
is "$(f stop_result)/$(f exec_status)" "success/0" "cleanly (exit 0, unit result success)"
is "$(f consumers_after_stop)" 0 "its consumer daemon exited too"
unlike "$(f rundir_after_stop)" "sock|sessiond.pid" "its sockets and pid file are gone ($(f rundir_after_stop))"
bt "$KVM_OUT/flush-trace" "$TEST_TMP/flush.txt"
got=$(grep -c ' hello_world:' "$TEST_TMP/flush.txt")
lost=$(discarded "$TEST_TMP/flush.txt.err")
is "$((got + lost))/$lost" "1502/0" "every event the program committed is in the trace: recorded $got + discarded $lost = 1502"

# --- the relay's unit killed, restarted: the dead relay's journal found
is "$(f r_start.rc)" 0 "ltt-relayd.service starts"
r=$(f r_journals_before)
is "$r" "${r%%:*}: relayd-writing.${r%%:*} " "the relay keeps its journal in its state directory, /var/lib/ltt-relayd ($r)"
is "$(f r_restarted)" 0 "killed (SIGKILL), systemd starts it again"
r=$(f r_journals_after)
is "$r" "${r%%:*}: relayd-writing.${r%%:*} " "the new relay's journal alone is there ($r)"
like "$(f relay-journal)" "1 dead relays' journals in /var/lib/ltt-relayd: " \
	"the new relay found the dead one's journal, its run directory emptied by the stop"

# --- the journal
like "$(f journal)" "session 'flush' destroyed" "the journal has the daemon's messages"
like "$(f journal)" "SIGTERM|[Ss]topping|stop" "including its stop"
unlike "$(f journal)" "ERROR|Error:|AddressSanitizer" "and no error"
done_testing
