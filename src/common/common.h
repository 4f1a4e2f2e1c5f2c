/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * common.h - map of src/common, the code the processes share, wing by
 * wing from the top layer down, each wing a folder with its map header,
 * which names the wing's files.  A file includes and calls files of its
 * own wing and of the wings listed after it, never one listed before, and
 * no two wings call each other (test_sessiond_layers holds the tree to
 * these maps, as it does src/sessiond's).  Files include a wing's header
 * as "common/WING/NAME.h".
 *
 * net/ (net.h): the network transport, plain or TLS, and the relay connection
 * proto/ (proto.h): the protocols' wire forms and framing
 * ftrace/ (ftrace.h): the kernel's own trace events (tracefs)
 * bpf/ (bpf.h): the BPF system call source: its loader, rings, program
 * model/ (model.h): sessions, channels, rules, triggers as the daemons hold them
 * filter/ (filter.h): LTTng's filter language, parsed and compiled
 * probe/ (probe.h): probes placed from outside a program, ELF files
 * trace/ (trace.h): trace format, ring buffer, repair, clock, file names
 * base/ (base.h): log, errors, strings, containers, the codec, event loop, sockets, files
 *
 * net/ is libnet.la (OpenSSL with it); every other wing is libcommon.la.
 * Which process pulls which wing (by its includes):
 *   ltt-sessiond   every wing
 *   ltt-consumerd  net, proto, ftrace, bpf (ring), model (context), filter, trace, base
 *   ltt-relayd     net, proto (relay, live), model (uri), trace, base
 *   lttctl         net, model, probe, trace (tracefile), base
 *   libltt-ctl     proto (client, trigger), model, probe, base
 *   libust         proto (app), model (context, trigger), trace, base
 *   python binding model (attr)
 */
#ifndef LTT_COMMON_COMMON_H
#define LTT_COMMON_COMMON_H
#endif /* LTT_COMMON_COMMON_H */
