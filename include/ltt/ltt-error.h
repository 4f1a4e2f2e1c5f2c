/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * ltt-error.h - the one table of user-facing error codes.
 *
 * Every failure that reaches a user has a code, a stable name and a
 * sentence that says what is wrong and what to do.  The table below
 * generates the enum here and the names and messages in src/common/base/error.c.
 * Codes are part of the ABI of libltt-ctl and of the client protocol:
 * a code is never renumbered and a retired number is never reused.
 *
 * libltt-ctl functions return 0 on success and the negated code on failure
 * (for example -LTT_ERR_SESSION_NOT_FOUND).
 */
#ifndef LTT_ERROR_H
#define LTT_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

/* X(NAME, number, message), in ascending order of number (test_error) */
#define LTT_ERROR_TABLE(X) \
	X(OK, 0, "success") \
	X(UNKNOWN, 1, "unknown error") \
	X(NOMEM, 2, "out of memory") \
	X(INVAL, 3, "invalid argument") \
	X(SESSIOND_NOT_RUNNING, 4, "no session daemon is running; start one with 'ltt-sessiond -d' or let 'lttctl create' start it") \
	X(SESSIOND_PERM, 5, "permission denied on the session daemon's socket; join the tracing group or use a personal daemon") \
	X(SESSIOND_IO, 6, "lost the connection to the session daemon; check that it is still running") \
	X(PROTOCOL, 7, "malformed message on the session daemon protocol") \
	X(VERSION_MISMATCH, 8, "the client and the session daemon speak incompatible protocol versions; use matching ltt versions") \
	X(NOT_SUPPORTED, 9, "this command is not supported by the session daemon; upgrade it") \
	X(PERM, 10, "permission denied: you do not own this object") \
	X(SESSION_NOT_FOUND, 11, "no session by that name; 'lttctl list' shows the existing sessions") \
	X(SESSION_EXISTS, 12, "a session with that name already exists; pick another name or destroy it first") \
	X(SESSION_NAME, 13, "invalid session name: use 1 to 255 printable characters, no '/' and no leading '.' or '-'") \
	X(SESSION_STARTED, 14, "the session is already started") \
	X(SESSION_NOT_STARTED, 15, "the session is not started") \
	X(SESSION_ACTIVE, 16, "the session is active; stop it first") \
	X(NO_CHANNEL, 17, "the session has no channel; enable an event or a channel first") \
	X(CHANNEL_NOT_FOUND, 18, "no channel by that name in this domain; 'lttctl list SESSION' shows the channels") \
	X(CHANNEL_EXISTS, 19, "a channel with that name already exists in this domain") \
	X(CHANNEL_NAME, 20, "invalid channel name: use 1 to 219 letters, digits, '_', '-' or '.', not starting with '.' or '-' ('metadata' is reserved)") \
	X(CHANNEL_ENABLED, 21, "the channel is already enabled") \
	X(CHANNEL_DISABLED, 22, "the channel is already disabled") \
	X(CHANNEL_ATTR, 23, "channel attributes can't change once the channel exists; create a channel with another name") \
	X(SUBBUF_SIZE, 24, "invalid sub-buffer size: use a power of two of at least one page (k, M, G suffixes)") \
	X(SUBBUF_COUNT, 25, "invalid sub-buffer count: use a power of two of at least 2") \
	X(BUFFER_TYPE, 26, "invalid buffer ownership for this domain: user channels take per-uid or per-pid, kernel channels global") \
	X(BUFFER_TYPE_MISMATCH, 27, "all channels of a domain in a session must use the same buffer ownership") \
	X(TRACEFILE_SIZE, 28, "invalid tracefile size: use 0 (unlimited) or at least the sub-buffer size") \
	X(EVENT_NAME, 29, "invalid event name or pattern: use letters, digits, '_', ':', '.', '-' and '*' globs") \
	X(EVENT_EXISTS, 30, "an identical event rule is already enabled in this channel") \
	X(EVENT_NOT_FOUND, 31, "no event rule matches in this channel; 'lttctl list SESSION' shows the rules") \
	X(DOMAIN, 32, "invalid domain: choose the kernel (-k) or the user (-u) domain") \
	X(KERNEL_NEEDS_ROOT, 33, "kernel tracing needs the root session daemon; run lttctl as root or as a member of the tracing group") \
	X(URL, 34, "invalid URL: use file:///ABS/PATH, net://HOST[:CTRL[:DATA]][/PATH] or net6://[ADDR][:CTRL[:DATA]]") \
	X(OUTPUT_PATH, 35, "invalid output directory: give an absolute path of at most 4095 bytes") \
	X(OUTPUT_CONFLICT, 36, "conflicting output options: choose one of -o, --set-url and --no-output") \
	X(LIVE_NEEDS_NET, 37, "a live session streams to a relay daemon: give a net:// URL (or none for the local relay)") \
	X(SNAPSHOT_LIVE, 38, "a session can't be both a snapshot and a live session") \
	X(LIMIT, 39, "a resource limit was reached; destroy unused sessions, channels or rules") \
	X(NO_SESSION, 40, "no session given and no current session; create one or use 'lttctl set-session NAME'") \
	X(LOGLEVEL, 41, "invalid log level: use a name (EMERG ... DEBUG) or a number from 0 to 14") \
	X(SESSIOND_SPAWN, 42, "could not start a session daemon; run 'ltt-sessiond -vvv' by hand to see why") \
	X(TIMER, 43, "invalid timer period: use microseconds from 0 to 4294967295") \
	X(CONSUMERD, 44, "the consumer daemon failed; see the session daemon's log") \
	X(CHANNEL_ACTIVE_ADD, 45, "a channel can't be added to an active session; stop the session first") \
	X(OUTPUT_UNSUPPORTED, 46, "this session daemon can't stream to a relay daemon; upgrade it, or use a local directory (-o) or --no-output") \
	X(RUNDIR_TOO_LONG, 47, "the run directory's path is too long for a Unix socket (at most 95 bytes): use a shorter one") \
	X(KERNEL_UNAVAILABLE, 48, "kernel tracing is not available in this session daemon; its log says why (ltt-sessiond -v)") \
	X(SNAPSHOT_UNSUPPORTED, 49, "snapshot sessions are not supported yet; create the session without --snapshot") \
	X(EVENT_TYPE, 50, "system call and probe rules (--syscall, --userspace-probe, --probe, --function) are for the kernel domain (-k) only") \
	X(KERNEL_LOGLEVEL, 51, "kernel events have no log level: drop --loglevel and --loglevel-only with -k") \
	X(KERNEL_SUBBUF_SIZE, 52, "kernel sub-buffers are at most 64 MiB: use a smaller --subbuf-size") \
	X(KERNEL_SUBBUF_COUNT, 53, "kernel channels have at most 4096 sub-buffers and 1 GiB per CPU: use fewer or smaller sub-buffers") \
	X(KERNEL_TIMER, 54, "kernel channel timers are 0 (off) or at least 100 us") \
	X(KERNEL_CHANNEL_STARTED, 55, "kernel channels can't be added once the session has started: add them before the first 'lttctl start'") \
	X(KERNEL_NO_MODULES, 56, "this kernel can't load modules (built without CONFIG_MODULES), so kernel tracing is not available; trace programs with -u") \
	X(KERNEL_MODULE_MISSING, 57, "the kernel tracer (module ltt-tracer) is not installed for the running kernel: install it (make -C kmod modules_install, depmod) and restart ltt-sessiond") \
	X(KERNEL_MODULE_REFUSED, 58, "the kernel refused to load the tracer module ltt-tracer (module signature enforcement, Secure Boot, or built for another kernel); the session daemon's log says which") \
	X(KERNEL_VERSION_MISMATCH, 59, "the loaded kernel tracer speaks another ABI version than this session daemon: unload it (rmmod ltt-tracer) and restart ltt-sessiond") \
	X(KERNEL_DISABLED, 60, "kernel tracing is disabled in this session daemon (--no-kernel); restart it without that option") \
	X(TRACER, 61, "the tracer could not apply the change, so nothing was changed; the session daemon's log says why") \
	X(KERNEL_EVENT_NOT_FOUND, 62, "the kernel tracer has no event (or system call) by that name; 'lttctl list -k' (--syscall) shows them") \
	X(KERNEL_NO_OUTPUT, 63, "kernel events need a session with an output (a directory or a relay); create the session without --no-output") \
	X(RELAY_REFUSED, 64, "connection refused: nothing listens on the relay's control port; start ltt-relayd there or check the URL's host and ports") \
	X(RELAY_TIMEOUT, 65, "the relay host did not answer in time; check the host, the ports and the firewalls between") \
	X(RELAY_UNREACHABLE, 66, "the relay host is unreachable from here (no route); check the URL's host and the network") \
	X(RELAY_HOST, 67, "the relay's host name does not resolve (or has no address of the URL's family); check the URL's host") \
	X(RELAY_NOT_RELAY, 68, "what answers on the control port is not a relay daemon (ltt-relayd, or LTTng's lttng-relayd 2.11 or later); check the URL's ports (control, then data), and give a relay that speaks only TLS (ltt-relayd --tls-cert) a tls:// URL") \
	X(RELAY_VERSION, 69, "the relay daemon speaks an incompatible protocol version; use a matching ltt-relayd") \
	X(RELAY_LOST, 70, "the connection to the relay daemon was lost; what was not sent is lost, 'lttctl list SESSION' shows why") \
	X(URL_PAIR, 71, "-C (control) and -D (data) go together: give both as tcp://HOST[:PORT] with the same host, and no --set-url, -o or --no-output") \
	X(LIVE_TIMER, 72, "invalid live timer period: use microseconds from 1000 to 4294967295") \
	X(RELAYD_SPAWN, 73, "could not start a local relay daemon; install ltt-relayd (or set LTT_RELAYD_PATH) or start one by hand with 'ltt-relayd -d'") \
	X(CONSUMERD_STALLED, 85, "the consumer daemon is running but did not answer in time (stopped or stalled: SIGSTOP, a stuck disk); nothing was killed and the command could not complete: a stopped session stays stopped, its data is written once the consumer runs again") \
	X(CONSUMERD_REFUSED, 86, "the consumer daemon refused some of the session's traces or channels, or none could be started for them (the session daemon's log says which and why: a directory it can't make or write under the output, say): what their programs recorded is not written, and is counted discarded; fix the output, then record in a new session") \
	X(CONSUMERD_LOST, 87, "a consumer daemon died while it held some of the session's traces and no new one could take them over (the session daemon's log says why): those traces end there, what their user-space buffers held counted discarded") \
	X(OUTPUT_NO_SPACE, 90, "no space left on the trace's file system (or the owner's disk quota is used up); free space and run 'lttctl start' again") \
	X(OUTPUT_ACCESS, 91, "permission denied writing the trace in its output directory; make it writable by the session's owner (or create the session with another -o), then run 'lttctl start' again") \
	X(OUTPUT_GONE, 92, "the trace's directory or its files were removed (or a path component is not a directory), so this session's trace can't go on; destroy the session and create it again") \
	X(OUTPUT_FDS, 93, "the consumer daemon has no file descriptor left; raise its limit (LimitNOFILE= in the unit, ulimit -n) or destroy unused sessions, then run 'lttctl start' again") \
	X(BUFFER_MEMORY, 94, "the channel's buffers (sub-buffer size x count, per CPU) would not fit in this host's available memory; use fewer or smaller sub-buffers") \
	X(OUTPUT_READ_ONLY, 95, "the trace's file system is read-only; remount it read-write (or create the session with another -o), then run 'lttctl start' again") \
	X(OUTPUT_IO, 96, "the trace could not be written to its file system (an I/O error); check that file system ('lttctl list SESSION' shows the error), then run 'lttctl start' again") \
	X(TIMER_MIN, 110, "switch and read timers are 0 (off) or at least 100 us: a shorter period keeps the consumer daemon busy without data; use a longer period") \
	X(TRACEFILE_CLASH, 111, "two channels of the domain would write files of the same name: a channel NAME with --tracefile-size writes NAME_CPU_N, which a channel NAME_CPU without it writes too; rename one of them") \
	X(SESSIOND_TIMEOUT, 112, "the session daemon did not answer in time (is it stopped or overloaded? its pid is in the run directory's sessiond.pid); allow more time with --timeout SEC or LTT_CTL_TIMEOUT") \
	X(SESSION_AMBIGUOUS, 113, "several users have a session by that name: name one as UID/NAME ('lttctl list' shows them so)") \
	X(SNAPSHOT_NOT_SNAPSHOT, 130, "the session is not in snapshot mode: snapshots are taken of sessions created with 'lttctl create --snapshot' or --no-output") \
	X(SNAPSHOT_NO_OUTPUT, 131, "the session has no snapshot output: give one to 'snapshot record' (-o DIR) or add one with 'lttctl snapshot add-output'") \
	X(SNAPSHOT_OUTPUT_EXISTS, 132, "the session already has a snapshot output (one per session is supported): delete it first with 'lttctl snapshot del-output'") \
	X(SNAPSHOT_OUTPUT_NOT_FOUND, 133, "the session has no snapshot output by that name or id; 'lttctl snapshot list-output' shows it") \
	X(SNAPSHOT_TOO_SMALL, 134, "the maximum snapshot size can't hold one packet of each stream of the session: give a larger --max-size (at least the sum of each channel's sub-buffer size times its streams), or 0 for no limit") \
	X(SNAPSHOT_NET, 135, "snapshots of kernel channels can't be sent to a relay daemon (net:// URLs) yet: give a local directory (-o DIR or file:///DIR); a session of user-space channels only can snapshot to a relay") \
	X(SNAPSHOT_KERNEL, 136, "the loaded module is too old for kernel snapshots (ltt-tracer.ko before kernel ABI 1.2): reload it (stop ltt-sessiond, 'rmmod ltt_tracer', start ltt-sessiond: it loads the installed module)") \
	X(SNAPSHOT_OUTPUT_NAME, 137, "invalid snapshot output name: use 1 to 255 letters, digits, '_', '-' or '.', not starting with '.' or '-'") \
	X(SNAPSHOT_EXISTS, 138, "the snapshot's directory holds a trace already: give another name (-n) or directory") \
	X(ROTATE_NEVER_STARTED, 140, "the session was never started, so it has no trace chunk to rotate or clear yet; run 'lttctl start' first") \
	X(ROTATE_OUTPUT, 141, "this session has no output to rotate (created with --no-output: it writes nothing but snapshots)") \
	X(ROTATE_SNAPSHOT, 142, "a snapshot session writes nothing until 'lttctl snapshot record', so it has no trace chunk to rotate") \
	X(ROTATE_INCOMPLETE, 143, "some of the session's traces could not move to the new trace chunk (the session daemon's log says why): they go on writing in the old chunk, which is not archived until a rotation moves them too; fix the output and rotate again") \
	X(ROTATION_VALUE, 144, "invalid rotation schedule: --timer takes a period above 0 and at most 18446744073709551 us (2^64 ns; us, or a unit: ms, s, m, h), --size a number of bytes above 0 (suffixes k, M, G)") \
	X(ROTATION_NOT_SET, 145, "the session has no such rotation schedule; 'lttctl list SESSION' shows its schedule") \
	X(ROTATE_FAILED, 146, "no trace of the session could move to a new trace chunk (the output's file system full or not writable, or a path in it taken; the session daemon's log says which): nothing was archived and the session records on in its current chunk; fix the output and rotate again") \
	X(CONFIG_MALFORMED, 150, "the session configuration file is not well-formed XML (the message names the line); fix or remove it: nothing was loaded") \
	X(CONFIG_INVALID, 151, "the session configuration file is not a valid ltt session configuration (the message names the line and what is wrong; the schema is session.xsd): nothing was loaded") \
	X(CONFIG_IO, 152, "the session configuration file or directory can't be read or written (the message names it and why)") \
	X(CONFIG_EXISTS, 153, "a saved configuration of that name already exists; use -f (--force) to overwrite it") \
	X(CONFIG_NOT_FOUND, 154, "no saved session configuration found (no file, or none holds that session); check the name and -i, or save the session first") \
	X(CONFIG_OVERRIDE_NAME, 155, "--override-name needs the session to load named, as LTTng's load does: give its name after the options") \
	X(CONFIG_UNSUPPORTED, 156, "the LTTng session configuration asks for something ltt does not have: change or remove that part as the message says; nothing was loaded") \
	X(CONFIG_MODULE, 157, "save and load need ltt's XML module (config-xml.so in ltt's library directory), which is missing or does not load (the message names the file and why): reinstall ltt, or set LTT_CONFIG_XML_PATH to the module") \
	X(USAGE, 160, "invalid command line; 'lttctl COMMAND --help' shows the command's usage") \
	X(MI_FORMAT, 161, "unknown machine interface format: lttctl --mi accepts xml only (in any case: XML too)") \
	X(MI_UNSUPPORTED, 162, "this command has no machine interface output (view runs a trace reader on the terminal, export-maps writes an SQL script, export-trace a database); run it without --mi") \
	X(CURRENT_SESSION_FILE, 163, "the current session file ($LTT_HOME/.lttrc) can't be read or written; check its permissions, or set the session again with 'lttctl set-session NAME'") \
	X(EVENTS_LOST, 164, "a channel's buffers were full, so events were discarded or packets lost; give it larger buffers (--subbuf-size, --num-subbuf)") \
	X(CLIENTS_PER_UID, 170, "this user has too many connections to the session daemon open at once (64 by default): end the programs that keep libltt-ctl connections open (idle ones are closed after ltt-sessiond's --client-idle-timeout), or have the daemon started with a larger --max-clients-per-uid") \
	X(CLIENTS_TOTAL, 171, "the session daemon has too many client connections from all users at once (256): try again in a moment (idle connections are closed after ltt-sessiond's --client-idle-timeout)") \
	X(RELAY_NO_ROTATE, 172, "the relay daemon is too old to rotate or clear a session (relay protocol 2.11, LTTng's relay included): run ltt-relayd of this version or later there, or stream to a local directory") \
	X(ROTATE_NET_KERNEL, 173, "rotation and clear of a session streamed to a relay daemon work for user-space channels only so far; this session has kernel channels: stream it to a local directory to rotate or clear it") \
	X(RELAY_ARCHIVE, 174, "the relay daemon could not archive (or, for a clear, delete) the closed trace chunk: its log says why (the archive's directory exists, or its file system failed); the chunk stays in the session's directory on the relay and the next rotation tries again") \
	X(CLIENT_BYTES, 175, "this request would take more of the session daemon's memory than one user may hold at once in requests and program messages still arriving (32 MiB by default): wait for your other commands to finish, send a smaller request, or have the daemon started with a larger --max-bytes-per-uid") \
	X(FILTER, 180, "the filter expression is not valid (the message shows where); see lttctl-enable-event(1) for the filter language") \
	X(EXCLUSION, 181, "an exclusion is not valid: exclusions need a rule pattern with a '*', and each must be an event name or pattern that the rule's pattern matches") \
	X(FILTER_KERNEL, 182, "filters and exclusions are not supported in the kernel domain yet (the kernel tracer has no filter interpreter); use them with -u") \
	X(FILTER_LIMIT, 183, "the filters and exclusions of the session's rules would exceed 1 MiB of text in all; disable or shorten some") \
	X(CONTEXT_TYPE, 190, "unknown context type: 'lttctl add-context --list' shows the types (perf counters: perf:thread:NAME, or perf:thread:raw:rN:NAME with N in hexadecimal)") \
	X(CONTEXT_EXISTS, 191, "the channel already has this context") \
	X(CONTEXT_STARTED, 192, "contexts can't be added to a session that was started once (the layout of its traces is fixed): add them before the first 'lttctl start', or create another session") \
	X(PERF_UNAVAILABLE, 193, "this machine can't count that perf counter: the kernel has no such event (no hardware PMU, as in a virtual machine without a virtual PMU, or a counter this CPU lacks); 'perf list' shows what it can count") \
	X(PERF_DENIED, 194, "perf counters are not allowed here: /proc/sys/kernel/perf_event_paranoid forbids them to this user (3 or more: only to root or CAP_PERFMON); lower it to 2 or run as a privileged user") \
	X(TRACKER_VALUE, 195, "invalid tracker value: --vpid and --pid take process ids, --vuid, --uid, --vgid and --gid user and group ids or names, as a comma-separated list of at most 1024") \
	X(TRACKER_NAME, 196, "no user or group by that name on the session daemon's host; check the name ('getent passwd NAME', 'getent group NAME') or give the numeric id") \
	X(TRACKER_POLICY, 197, "this tracker includes every process or none, so it has no list of ids to remove one from; 'lttctl track --vpid ID,...' (or --vuid, --vgid) includes only those ids, 'lttctl untrack --all' none") \
	X(TRACKER_LIMIT, 198, "a tracker holds at most 1024 ids; track fewer, or track a user or group (--vuid, --vgid) instead of each process") \
	X(TRACKER_UNCHANGED, 199, "that id was already tracked (track) or was not tracked (untrack): nothing changed for it") \
	X(FILTER_KERNEL_MODULE, 200, "the loaded kernel tracer is too old for filters (they need kernel ABI 1.3): reload the ltt-tracer module ('rmmod ltt-tracer' once no kernel session exists, then restart ltt-sessiond)") \
	X(FILTER_KERNEL_FLOAT, 201, "kernel filters take no floating-point numbers (the kernel tracer has no floating point, as in LTTng): compare the field with an integer") \
	X(FILTER_KERNEL_CONTEXT, 202, "this filter reads a context the kernel domain does not have ($app.* or $ctx.pthread_id); kernel filters may read $ctx.pid, tid, vpid, vtid, vppid, procname, cpu_id, vuid and vgid") \
	X(FILTER_KERNEL_TYPE, 203, "the filter does not type-check against the kernel event's fields (a field compared with a value of another type, or indexed out of its bounds); 'lttctl list -k -f' shows each event's fields") \
	X(CONTEXT_DOMAIN, 205, "this context type does not exist in that domain: 'lttctl add-context --list -k' shows the kernel domain's, 'lttctl add-context --list -u' user space's (ip, pthread_id and perf:thread counters are user space's; pid, tid, ppid, prio, nice, hostname... the kernel's)") \
	X(KERNEL_CONTEXT_MODULE, 206, "the loaded kernel tracer predates kernel contexts (kernel ABI 1.4): unload ltt-tracer and restart ltt-sessiond so that it loads the installed module") \
	X(KERNEL_CONTEXT_PERF, 207, "perf counters (perf:cpu:... and perf:thread:...) are not supported in the kernel domain: add them to user-space channels (-u, perf:thread:...)") \
	X(TRACKER_DOMAIN, 210, "the user-space domain has the trackers --vpid, --vuid and --vgid only (its -p/--pid is --vpid, as LTTng takes it); --uid and --gid are trackers of the kernel domain (-k)") \
	X(TRACKER_KERNEL, 211, "the loaded module is too old for kernel process trackers (ltt-tracer.ko before kernel ABI 1.5): reload it (stop ltt-sessiond, 'rmmod ltt_tracer', start ltt-sessiond: it loads the installed module)") \
	X(TRACKER_REACH, 212, "the sessions of a member of the tracing group record its own user's programs only, so tracking another user's id would record nothing: track your own user id, or have the administrator start ltt-sessiond with --member-reach=all (every user's programs, as LTTng's tracing group records)") \
	X(STATEDUMP_KERNEL, 225, "the loaded kernel tracer is too old to record its state dump on demand (ltt-tracer.ko before kernel ABI 1.6): reload it (stop ltt-sessiond, 'rmmod ltt_tracer', start ltt-sessiond: it loads the installed module)") \
	X(STATEDUMP_DOMAIN, 226, "regenerate statedump records the state dump of the kernel tracer and of the traced programs into the session's channels, and this session has none: add a channel first") \
	X(REGEN_RELAY, 227, "the relay daemon this session streams to is too old to replace a trace's metadata (ltt-relayd before protocol 2.13): upgrade ltt-relayd; nothing was changed") \
	X(ROTATE_CONSUMER_DIED, 230, "the consumer daemon died during the rotation, before any trace moved: nothing was archived or lost, a new consumer takes the session's buffers over (the session daemon's log says if none could) and recording goes on in the current trace chunk; rotate again") \
	X(ROTATE_LATE, 231, "the consumer daemon did not answer the rotation in time (stopped or stalled): the traces move to the new trace chunk once it runs again, and the old chunk is archived by the next rotation or by destroy, which waits for it; nothing is lost") \
	X(KERNEL_BACKEND, 232, "the session daemon traces the kernel through tracefs (the kernel's own buffers, used where ltt's module can't load), which can't do this yet (ltt-sessiond(8) lists what it does); the session daemon's log says what was refused") \
	X(RELAY_SESSION_REFUSED, 233, "the relay daemon refused to create the session or its trace chunk; the relay daemon's log says why") \
	X(FSYNC_OUTPUT, 234, "--fsync syncs the trace files a session writes as it records, and this session writes none: it streams to a relay daemon, or records snapshots only; enable the channel without --fsync") \
	X(PYTHON_CHANNEL, 235, "channels 'lttng_python_channel', 'lttng_jul_channel' and 'lttng_log4j_channel' record the python, JUL and log4j domains: enable loggers there with -p, -j or -l (no -c), and user-space events in another channel") \
	X(PYTHON_NAME, 236, "a logger pattern (python, JUL, log4j) is 1 to 255 characters of letters, digits, '_', ':', '.', '-' and '*' (globs)") \
	X(TRIGGER_EXISTS, 237, "a trigger with that name already exists; pick another name or remove it first ('lttctl list-triggers' shows yours)") \
	X(TRIGGER_NOT_FOUND, 238, "no trigger by that name among yours; 'lttctl list-triggers' shows them") \
	X(TRIGGER_NAME, 239, "invalid trigger name: use 1 to 255 bytes of text, without a control character (a newline, a tab)") \
	X(TRIGGER_LIMIT, 240, "you have as many triggers as the session daemon allows (ltt-sessiond --max-triggers-per-uid); remove one first") \
	X(TRIGGER_CONDITION, 241, "invalid condition: give one of event-rule-matches, channel-buffer-usage-ge, channel-buffer-usage-le, session-consumed-size-ge, session-rotation-starts, session-rotation-finishes, with the arguments it takes (lttctl-add-trigger(1))") \
	X(TRIGGER_ACTION, 242, "invalid action: give 1 to 8 of notify, start-session, stop-session, rotate-session and snapshot-session (or incr-map-value alone), a session with each but notify, and a rate policy every:N or once-after:N with N at least 1") \
	X(TRIGGER_CAPTURE, 243, "invalid capture: give a payload field (NAME), an element of an array or sequence field (NAME[INDEX]), a context ($ctx.vpid, vtid, pid, tid, procname, pthread_id, cpu_id, vuid, vgid, vppid; another is unavailable) or an application context ($app.PROVIDER:TYPE, unavailable)") \
	X(TRIGGER_THRESHOLD, 244, "invalid threshold: a size is a number of bytes above 0 (k, M, G suffixes), a ratio a number from 0 to 1") \
	X(TRIGGER_UNSUPPORTED, 245, "this session daemon can't evaluate that condition yet (lttctl-add-trigger(1) lists those it does): nothing was added") \
	X(TRIGGER_OWNER, 246, "only root may add a trigger for another user (--owner-uid)") \
	X(NOTIFICATION_TIMEOUT, 247, "no notification came in the time given") \
	X(LTTNG_UNSUPPORTED, 248, "LTTng has this and ltt does not: leave it out as the message says; nothing was changed") \
	X(NEED_CHANNEL_NAME, 249, "the domain has a channel other than channel0, so a rule's channel must be named: give -c CHANNEL (-c channel0 for the default one)") \
	X(DEPRECATED_SPELLING, 250, "LTTng's older spelling, done as the newer one: write the newer one in new scripts") \
	X(PROBE_LOCATION, 251, "a probe's location is [elf:]PATH:FUNCTION or sdt:PATH:PROVIDER:NAME (--userspace-probe), SYMBOL[+OFFSET] or 0xADDR (--probe, --function), and its event a name without '*'") \
	X(PROBE_NOT_FOUND, 252, "no such probe point: the file is missing or not an ELF file of this machine, or it has no such function (nm -D FILE) or SDT probe (readelf -n FILE)") \
	X(PROBE_TRACER, 253, "the kernel tracer can't place this kind of probe; the session daemon's log says what it lacks and what to do") \
	X(PROBE_SAVE, 254, "a session with probe rules can't be saved by this libltt-ctl: use a newer one, which saves their locations (this one no longer returns it)") \
	X(TLS_FILES, 255, "TLS needs a tls:// URL with all three of --tls-cert, --tls-key and --tls-ca, each a readable PEM file (the key the certificate's); nothing was created") \
	X(RELAY_TLS, 256, "the TLS handshake with the relay failed: its certificate is not signed by --tls-ca or not for the URL's host, or it refused ours (not signed by its CA), or it does not speak TLS; the session daemon's log says which") \
	X(BUFFER_PREALLOCATION, 257, "--buffer-preallocation takes preallocate or on-demand") \
	X(KERNEL_ON_DEMAND, 258, "kernel channels can't take their buffers' memory on demand: the module and tracefs allocate each CPU's buffer whole when the channel starts; enable the kernel channel without --buffer-preallocation=on-demand, with smaller buffers (--subbuf-size, --num-subbuf) to take less") \
	X(RECLAIM_OVERWRITE, 259, "reclaim-memory gives back what the consumer has read, and an overwrite-mode channel's writers may take back any sub-buffer at any time: ltt can't give back its memory while it records; destroy or stop the session, or use a discard-mode channel") \
	X(RECLAIM_CLOCK, 260, "--older-than counts nanoseconds of CLOCK_MONOTONIC, and this session's user-space events are timed by the TSC: give back every consumed sub-buffer (leave --older-than out)") \
	X(BUFFER_ALLOCATION, 261, "--buffer-allocation takes per-cpu or per-channel") \
	X(KERNEL_PER_CHANNEL, 262, "kernel channels can't have one ring buffer for the whole channel: the module's and tracefs's buffers are per CPU, each written without a lock (one buffer that every CPU writes serialises the writers: 7.6 us an event with 16 writers against 64 ns per CPU, measured on ltt's user-space per-channel buffers, bench/README.md); enable the kernel channel with --buffer-allocation=per-cpu (or without the option), with smaller sub-buffers where memory matters ('lttctl list --mem-usage' shows what each CPU's buffer holds), or trace the program in user space (-u) with per-channel buffers") \
	X(MAP_NOT_FOUND, 263, "the session has no map channel of that name: add it with 'lttctl add-map-channel --type=user NAME' ('lttctl show-maps' lists the session's)") \
	X(MAP_EXISTS, 264, "the session has a map channel of that name already: choose another name") \
	X(MAP_LIMIT, 265, "a session takes at most 64 map channels, and a map at most 16 Mi counters (its keys plus one, rounded up to 8, times the CPUs): give fewer keys (--max-key-count) or remove a map") \
	X(MAP_KEY, 266, "invalid map key template: give 1 to 255 printable characters in which braces only write the fields {event_name} and {provider_name}") \
	X(MAP_ACTION, 267, "an incr-map-value action counts the events of an event-rule-matches condition in a map channel of the rule's domain (a user-space rule in a --type=user map, a kernel rule in a --type=kernel map), and is its trigger's only action: give a rule of the map's domain, and put other actions in another trigger") \
	X(AUTO_RECLAIM, 268, "--auto-reclaim-memory takes off, consumed or older-than:AGE (AGE not 0), and only on a user-space channel in discard mode: the kernel's buffers are allocated whole, and an overwrite-mode channel's writers may take back any sub-buffer at any time") \
	X(AUTO_RECLAIM_SNAPSHOT, 269, "--auto-reclaim-memory=consumed gives back what the consumer reads, and a snapshot session's consumer reads nothing until a snapshot: use older-than:AGE, or off") \
	X(MAP_KERNEL, 270, "ltt keeps kernel map channels with ftrace's histogram triggers (the tracefs kernel backend) or with ltt's module from its kernel ABI 1.9 on: this daemon's kernel tracer has neither (an older module, or a kernel built without CONFIG_HIST_TRIGGERS; the session daemon's log says which); record the events in a kernel channel and count them in the trace, reload a newer ltt module, or run ltt-sessiond --kernel-backend=tracefs on a kernel with histogram triggers") \
	X(MAP_KERNEL_FILTER, 271, "a kernel map counts with ftrace's histogram triggers, whose filter must say the rule's filter exactly, and ftrace's filter grammar can't say this one (the session daemon's log names the event): filter on the event's own fields with ==, !=, <, <=, >, >=, & and \"prefix*\" globs joined by &&, || and !, or record the events and count them in the trace") \
	X(MAP_KERNEL_TWICE, 272, "a kernel map counts an event once under a key: another trigger counts one of this rule's events under the same key of this map already; count it under another key, or remove the other trigger") \
	X(TLS_MODULE, 273, "TLS needs ltt's TLS module (net-tls.so in ltt's library directory, which brings OpenSSL), which is missing or does not load (the message names the file and why): reinstall ltt (the ltt-tools package), or set LTT_NET_TLS_PATH to the module") \
	X(MAP_KERNEL_EVENTS, 274, "ltt's kernel module counts at most 16384 (event, key) pairs in one kernel map, and one event under at most 16384 keys of all kernel maps together: this trigger would take it past them (a rule on every system call is some 900 events); count fewer events in this map (a narrower --name), spread the triggers over more maps, or use the tracefs kernel backend, which has no such limit") \
	X(REGEN_PER_PID, 280, "per-PID recording sessions are not supported: the metadata of a session with per-PID user-space buffers (--buffers-pid) can't be regenerated, as in LTTng; give its channels per-user buffers (the default) in a new session") \
	X(REGEN_LIVE, 281, "live sessions are not supported: a live session's metadata can't be regenerated, as in LTTng (its viewers read it as it is written); create the session without --live") \
	X(ROTATE_LIVE, 282, "rotation is not available for live sessions, as in LTTng: its viewers follow one trace; create the session without --live to rotate it") \
	X(ROTATE_AFTER_STOP, 283, "the session was already rotated once since it stopped, which ended its trace chunk (as in LTTng): nothing was recorded since; start it again to begin a new chunk") \
	X(CONFIG_LTTNG_FORMAT, 290, "LTTng's session format can't hold this session (the message says what of it is ltt's only), and the file to save to is not a .ltt file: save to a path ending in .ltt, or to a directory, where it goes in ltt's format") \
	X(TRACEFILE_ROUNDED, 295, "a trace file holds whole sub-buffers, so a trace file size under the sub-buffer size is taken as the sub-buffer size, as LTTng takes it: give -C/--tracefile-size of at least --subbuf-size to choose the size yourself") \
	X(AGENT_CHANNEL, 296, "the python, JUL and log4j domains record in a channel of their own (lttng_python_channel, lttng_jul_channel, lttng_log4j_channel): with -p, -j or -l the rules go there whatever -c says, as LTTng takes it; leave -c out") \
	X(METADATA_CHANNEL, 297, "ltt has no metadata ring buffer to size or time: the session daemon sends each program's metadata to the consumer as it is made, so LTTng's user-space 'metadata' channel sets nothing (its options were checked as a channel's; the buffer ownership is the session's channels'); nothing was made") \
	X(OUTPUT_CREATE, 330, "the output directory can't be created: a missing part of its path can't be made where it would go (a file system such as /proc takes no new directory) or a part of it is not a directory; give an output directory where the session's owner can create one") \
	X(BLOCKING_TIMEOUT, 350, "--blocking-timeout takes 0, inf, or microseconds (a value with a unit: us, ms, s, m, h) up to 2147483647999 (LTTng's limit, 2^31 - 1 ms), and only on a user-space channel: the kernel's writers can't wait; give such a value, or leave it out of a kernel channel") \
	X(BLOCKING_OVERWRITE, 351, "--blocking-timeout makes a program wait for room in a full channel, and an overwrite-mode channel is never full (its writers overwrite the oldest events): give --discard, or leave --blocking-timeout out (or 0)") \
	X(BLOCKING_DAEMON, 352, "the session daemon predates blocking channels (--blocking-timeout, client protocol 1.30): restart ltt-sessiond from this version of ltt, or leave --blocking-timeout out") \
	X(SHM_PATH, 380, "the shared memory path (--shm-path) must be an absolute directory path shorter than 4096 bytes where the session's owner can create directories: give such a directory") \
	X(SHM_PATH_DAEMON, 381, "the session daemon predates ring buffers in files (--shm-path, client protocol 1.31): restart ltt-sessiond from this version of ltt, or leave --shm-path out") \
	X(TRACE_FORMAT, 382, "--trace-format takes default, ctf-1.8 or ctf-2") \
	X(TRACE_FORMAT_DAEMON, 383, "the session daemon predates CTF 2 traces (--trace-format, client protocol 1.38): restart ltt-sessiond from this version of ltt, or leave --trace-format out (CTF 1.8)") \
	X(CTF2_RELAY, 384, "the relay daemon predates CTF 2 traces (relay protocol 2.15, LTTng 2.15's lttng-relayd or ltt-relayd of this version), and would take the session's metadata for CTF 1.8's: nothing was started; update the relay, or create the session with --trace-format=ctf-1.8") \
	X(TRIGGER_RULE_SLOTS, 420, "the session daemon holds as many event-rule-matches triggers of that domain as it has error counter slots for (ltt-sessiond --event-notifier-error-buffer-size-userspace or -kernel, LTTng's; default 4096): remove one ('lttctl remove-trigger'), or restart the daemon with more slots") \
	X(ROTATE_AFTER_CLEAR, 550, "the session was cleared since it stopped, as in LTTng: a rotation now would archive an empty trace chunk; start the session again, record, then rotate") \
	X(RELAY_NO_CLEAR, 551, "the relay daemon refuses clears (started with --disallow-clear or LTTNG_RELAYD_DISALLOW_CLEAR): nothing was cleared; destroy the session and create it anew, or restart the relay without them") \
	X(TRIGGER_CAPTURES, 610, "too many captures: an event-rule-matches condition takes at most 64 (LTT_TRIGGER_CAPTURES_LIMIT), each notification then carrying them whole; capture fewer fields, or split them over two triggers of the same rule") \
	X(TRIGGER_CAPTURES_DAEMON, 611, "the session daemon predates conditions of more than 16 captures (client protocol 1.33): restart ltt-sessiond from this version of ltt, or capture at most 16 fields") \
	X(TRIGGER_KPROBE_EVENTS, 620, "a trigger's kernel probe (--type=kernel:kprobe) is placed through tracefs' kprobe_events, which this kernel lacks (a kernel built without CONFIG_KPROBE_EVENTS): add the trigger on a kernel that has it") \
	X(TRIGGER_UPROBE_EVENTS, 621, "a trigger's user-space probe (--type=kernel:uprobe) is placed through tracefs' uprobe_events, which this kernel lacks (a kernel built without CONFIG_UPROBE_EVENTS): add the trigger on a kernel that has it") \
	X(TRIGGER_PROBE_FILE, 622, "a trigger's user-space probe file is read with the rights of the client adding it, and a session daemon that gave root's rights up (--privsep-user) has no client here: add the trigger with lttctl add-trigger") \
	X(TRIGGER_PROBE_RULE, 623, "a trigger's probe rule (kernel:kprobe, kernel:uprobe) takes no filter, and counts in no map: drop --filter, or count a tracepoint or system call rule") \
	X(TRIGGER_PROBE_DAEMON, 624, "the session daemon predates triggers' probe rules (client protocol 1.36): restart ltt-sessiond from this version of ltt") \
	X(TRIGGER_BUSY, 625, "the session daemon had 4096 firings on their way (its notification threads or the owner's session actions fell behind the rule): this firing's actions did not run; narrow the rule (a filter), or give the action a rate policy (--rate-policy=every:N)") \
	X(TRIGGER_SUBSCRIBER_BEHIND, 626, "a subscriber left more than 256 KiB of notifications unread and missed this one (its next notification says how many it missed): read notifications as fast as they come, or narrow the trigger's rule") \
	X(TRIGGER_LTTNG_DAEMON, 640, "the session daemon predates adding a trigger as LTTng's lttng adds it (client protocol 1.35): it would refuse this kernel rule, whose filter may fit none of its events; restart ltt-sessiond from this version of ltt") \
	X(AGENT_UNKNOWN_NAME, 900, "the LTTng agent (python, JUL or log4j) of a registered program knows no logger of that name, and refused the rule: nothing was changed; the session daemon's log names the program; give a logger name the program has ('lttctl list -p', -j or -l lists them), or stop that program first") \
	X(AGENT_REFUSED, 901, "the LTTng agent (python, JUL or log4j) of a registered program refused the rule: nothing was changed; the session daemon's log names the program and the agent's answer; check that program's agent, or stop that program first") \
	X(AGENT_NO_ANSWER, 902, "the LTTng agent (python, JUL or log4j) of a registered program did not take the rule (its connection failed, or it did not answer within 3 s): nothing was changed; the session daemon's log names the program; try again, or stop that program first") \
	X(CHANNEL_STARTED, 1010, "a channel can't be added to a session that was started once, as in LTTng (the layout of its traces is fixed): add channels before the first 'lttctl start', or create another session")

enum ltt_error_code {
#define LTT_ERROR_ENUM_(name, num, msg) LTT_ERR_##name = (num),
	LTT_ERROR_TABLE(LTT_ERROR_ENUM_)
#undef LTT_ERROR_ENUM_
	LTT_ERR_NR_,
};

/**
 * ltt_strerror() - the message for an error code
 * @code: an ltt error code, negated or not
 *
 * Returns a static sentence.  A code this library does not know (a newer
 * daemon's) gives a generic sentence with its number, in a buffer of the
 * calling thread valid until its next call with an unknown code.
 */
const char *ltt_strerror(int code);

/**
 * ltt_error_name() - the stable name of an error code ("SESSION_NOT_FOUND")
 * @code: an ltt error code, negated or not
 *
 * Returns a static string; an unknown code gives "UNKNOWN".
 */
const char *ltt_error_name(int code);

#ifdef __cplusplus
}
#endif

#endif /* LTT_ERROR_H */
