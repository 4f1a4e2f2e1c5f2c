/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bpf-abi.h - what the BPF system call source's program (syscalls.bpf.c)
 * and user space (bpf-sc.c loads it, bpf-ring.c reads its records) agree
 * on: the map of enabled system calls and the records it writes
 * (doc/kernel-bpf.md).  Included by both sides: plain fixed-width types,
 * the includer gives them (<linux/types.h> in BPF, <stdint.h> mapped to
 * the __u names in user space).
 *
 * A record in a CPU's ring: {u64 timestamp (CLOCK_MONOTONIC ns,
 * bpf_ktime_get_ns(), the ftrace instances' "mono" clock)} then the
 * record ftrace's syscalls/sys_enter_NAME would hold, laid out as its
 * format file says (common header: u16 common_type, u8 flags, u8
 * preempt_count, s32 common_pid; s32 __syscall_nr at 8; argument i at
 * 16 + 8 i), except that each argument the system call's entry marks as
 * a string holds a __data_loc (u32: offset from the record's start in
 * the low 16 bits, length with the NUL in the high 16) of the string
 * read from the process, placed after the arguments.  What no ring could
 * take is counted in the lost array (u64 per CPU, mappable read-only).  A string of
 * LTT_BPF_STR_MAX - 1 bytes or more is cut there and ends with
 * LTT_BPF_CUT_MARK; one that can't be read is "" (its length 1).
 *
 * A call whose entry lttng-modules writes with a structure read from the
 * process (its payload, LTT_BPF_PAYLOAD_*) has LTT_BPF_PAYLOAD_BYTES
 * more after the arguments, laid out as below, and its sequences'
 * elements after them (a __data_loc each, of the bytes, as a string's).
 */
#ifndef LTT_COMMON_BPF_ABI_H
#define LTT_COMMON_BPF_ABI_H

#define LTT_BPF_SC_MAX		1024	/* system call numbers served: 0 .. MAX - 1 */
#define LTT_BPF_ARGS		6
#define LTT_BPF_STR_MAX		256	/* bytes read of a string, its NUL included */
#define LTT_BPF_HDR		16	/* common header and __syscall_nr, padded */
#define LTT_BPF_PAYLOAD_BYTES	24	/* a payload's fixed fields, after the arguments */
/* a payload's sequences' bytes, at most: epoll_wait's events (5797), more than poll's (3584) */
#define LTT_BPF_PAYLOAD_DATA	(LTT_BPF_EPOLL_MAX * LTT_BPF_EPOLL_BYTES)
#define LTT_BPF_REC_MAX		(LTT_BPF_HDR + 8 * LTT_BPF_ARGS + LTT_BPF_PAYLOAD_BYTES + \
				 LTT_BPF_PAYLOAD_DATA + LTT_BPF_ARGS * LTT_BPF_STR_MAX)
/* A cut string's last bytes: U+2026, the ellipsis, in UTF-8. */
#define LTT_BPF_CUT_MARK	"\xe2\x80\xa6"
#define LTT_BPF_CUT_MARK_LEN	3

/* The control array's slots (u64 each). */
#define LTT_BPF_CTL_ON		0	/* nonzero: record (the session started) */
#define LTT_BPF_CTL_TRACK	1	/* the pid tracker: one of LTT_BPF_TRACK_* */
#define LTT_BPF_CTL_NR		2

/*
 * The pid tracker: every task (ALL), none (NONE), or those whose thread
 * or thread group id is in the pids map (SET), which the program adds
 * each child a listed task forks to.
 */
#define LTT_BPF_TRACK_ALL	0
#define LTT_BPF_TRACK_SET	1
#define LTT_BPF_TRACK_NONE	2
#define LTT_BPF_PIDS_MAX	8192

/*
 * The structures read from the process, as lttng-modules' overrides
 * write them (its fields, at offsets from the payload's start P):
 *
 * SOCKADDR: connect's (argument 1, its length argument 2): u16 family
 *   at P (0 when the length can't hold it), u16 dport at P + 2 (the
 *   port, in the host's order), __data_loc u8[] v4addr at P + 4 (4
 *   bytes for AF_INET, else none), __data_loc u16[] v6addr at P + 8 (8
 *   16-bit groups, host order, for AF_INET6, else none).  A length too
 *   short for the family's structure: the family alone.
 * POLLFD: poll's and ppoll's (the array argument 0, its count argument
 *   1): u32 fds_length at P (the count, at most LTT_BPF_POLL_MAX; 0 when
 *   the array can't be read), u8 overflow at P + 4 (1: more than that),
 *   __data_loc fds at P + 8: fds_length pollfds as lttng-modules writes
 *   them at the entry, LTT_BPF_POLLFD_BYTES each, packed: s32 fd, u16
 *   events, u8 events' low byte (its flags' bits).
 * EPOLL: epoll_ctl's (the event argument 3): lttng-modules' event
 *   structure, LTT_BPF_EPOLL_BYTES at P, packed: u64 data, s32 data's
 *   low half (the fd), u32 events, u8 events' low byte (its flags' bits);
 *   0 when it can't be read.
 * POLL_EXIT, PPOLL_EXIT: poll's and ppoll's, at the exit (P = 24, as
 *   ACCEPT's): u32 nfds at P (the entry's), u32 fds_length at P + 4,
 *   u8 overflow at P + 8 (PPOLL_EXIT's only in the layout), __data_loc
 *   fds at P + 12: as lttng-modules writes them at the exit, the pollfds
 *   whose revents is set (ret of them at most, zeros when fewer are:
 *   fds_length is ret; more than LTT_BPF_POLL_MAX nfds: that many, and
 *   overflow), each s32 fd, u16 revents, u8 its low byte.
 * EPOLL_WAIT: epoll_wait's and epoll_pwait's, at the exit (P = 24): u32
 *   fds_length at P (ret, at most LTT_BPF_EPOLL_MAX: a page's; 0 when
 *   the array can't be read), u8 overflow at P + 4 (1: ret was more),
 *   __data_loc fds at P + 8: the events, each as EPOLL's structure.
 * ACCEPT: accept's and accept4's, at the exit (the record ftrace's
 *   sys_exit_NAME holds, ret at 16, P = 24): s32 upeer_addrlen at P (the
 *   length the kernel wrote back; 0 when unreadable), then SOCKADDR's
 *   fields from P + 4 with sport for dport, of the buffer the entry
 *   passed (argument 1, its length at argument 2).
 */
#define LTT_BPF_PAYLOAD_NONE	 0
#define LTT_BPF_PAYLOAD_SOCKADDR 1
#define LTT_BPF_PAYLOAD_POLLFD	 2
#define LTT_BPF_PAYLOAD_ACCEPT	 3
#define LTT_BPF_PAYLOAD_EPOLL	 4
#define LTT_BPF_PAYLOAD_POLL_EXIT 5
#define LTT_BPF_PAYLOAD_PPOLL_EXIT 6
#define LTT_BPF_PAYLOAD_EPOLL_WAIT 7
#define LTT_BPF_EPOLL_BYTES	17	/* an epoll_event in the record */
#define LTT_BPF_EPOLL_MAX	341	/* epoll_events: a page's, as lttng-modules bounds them */
#define LTT_BPF_POLL_MAX	512	/* pollfds: a page's, as lttng-modules bounds them */
#define LTT_BPF_POLLFD_BYTES	7	/* a pollfd in the record */

/* What the program does at a system call's entry: the map's value, by number. */
struct ltt_bpf_call {
	__u16 enter_id;		/* the record's common_type (ftrace's id); 0: not recorded */
	__u8 nargs;		/* arguments recorded: 0 .. LTT_BPF_ARGS */
	__u8 str_mask;		/* bit i: argument i is a string read from the process */
	__u8 payload;		/* LTT_BPF_PAYLOAD_*: a structure read after the arguments */
	__u8 exit_payload;	/* LTT_BPF_PAYLOAD_ACCEPT: the exit's */
	__u16 exit_id;		/* the exit's record's common_type; 0: ftrace records it */
};

#endif /* LTT_COMMON_BPF_ABI_H */
