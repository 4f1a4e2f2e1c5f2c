/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ltt-probes.h - the list of probe files built into ltt-tracer.ko.
 *
 * Each X(name) is a struct ltt_probe ltt_probe_name defined with
 * LTT_PROBE() in probes/ltt-probe-name.c (also listed in kmod/Kbuild).
 */
#ifndef LTT_PROBES_H
#define LTT_PROBES_H

#define LTT_PROBES(X) \
	X(test) \
	X(lttng_test) \
	X(logger) \
	X(statedump) \
	X(sched) \
	X(irq) \
	X(timer) \
	X(block) \
	X(net) \
	X(kmem) \
	X(signal) \
	X(syscalls)

#endif /* LTT_PROBES_H */
