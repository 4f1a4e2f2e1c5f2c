# tests/kernel: scenarios run inside Debian's packaged kernel booted under
# QEMU, with the module and the installed programs in its initramfs
# (tests/kernel/README.md).  Each test skips when QEMU, the kernel packages
# or the module are missing (scripts/deps.sh --kernel installs them).
KERNEL_TESTS = \
	tests/kernel/test_vm.sh \
	tests/kernel/test_vm_clock.sh \
	tests/kernel/test_kmod_load.sh \
	tests/kernel/test_kernel_session.sh \
	tests/kernel/test_kmod_core.sh \
	tests/kernel/test_kmod_probes.sh \
	tests/kernel/test_kernel_workload.sh \
	tests/kernel/test_kernel_access.sh \
	tests/kernel/test_kernel_relay.sh \
	tests/kernel/test_kernel_takeover.sh \
	tests/kernel/test_kernel_rotate.sh \
	tests/kernel/test_kernel_snapshot.sh \
	tests/kernel/test_kernel_track.sh \
	tests/kernel/test_kernel_filter.sh \
	tests/kernel/test_kernel_lttng_test.sh \
	tests/kernel/test_kernel_context.sh \
	tests/kernel/test_kernel_kprobe.sh \
	tests/kernel/test_kernel_map.sh \
	tests/kernel/test_kernel_map_module.sh \
	tests/kernel/test_kernel_hotplug.sh \
	tests/kernel/test_kernel_net_lifecycle.sh \
	tests/kernel/test_kernel_regen.sh \
	tests/kernel/test_kernel_ctf2.sh \
	tests/kernel/test_kernel_stalled.sh \
	tests/kernel/test_kernel_triggers.sh \
	tests/kernel/test_systemd.sh \
	tests/kernel/test_lttng_tools_kernel.sh \
	tests/kernel/test_deb.sh \
	tests/kernel/releases/test_kmod_core_trixie.sh \
	tests/kernel/releases/test_kmod_probes_trixie.sh \
	tests/kernel/releases/test_kernel_workload_trixie.sh \
	tests/kernel/releases/test_kmod_core_sid.sh \
	tests/kernel/releases/test_kmod_probes_sid.sh \
	tests/kernel/releases/test_kernel_workload_sid.sh
TESTS += $(KERNEL_TESTS)
EXTRA_DIST += $(KERNEL_TESTS) tests/kernel/lib.sh tests/kernel/sysroot.sh tests/kernel/deb-compat.sh tests/ctf-kernel-table.py tests/kernel/README.md \
	tests/kernel/guest/init tests/kernel/guest/lib.sh \
	tests/kernel/scenarios tests/kernel/vm.sh tests/kernel/systemd

# The raw ABI client the scenarios run in the guest.
check_PROGRAMS += tests/kernel/kabi_client
tests_kernel_kabi_client_SOURCES = tests/kernel/kabi_client.c
tests_kernel_kabi_client_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/kmod

# The known workloads whose kernel events the scenarios check.
check_PROGRAMS += tests/kernel/kworkload
tests_kernel_kworkload_SOURCES = tests/kernel/kworkload.c

# The test probe's writer of the tracker scenario (kernel_track).
check_PROGRAMS += tests/kernel/kemit
tests_kernel_kemit_SOURCES = tests/kernel/kemit.c
tests_kernel_kemit_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/kmod

# The process whose context values the kernel context test knows.
check_PROGRAMS += tests/kernel/kctxload
tests_kernel_kctxload_SOURCES = tests/kernel/kctxload.c

# The clock slewer of the slewing scenario (ust_clock_slew).
check_PROGRAMS += tests/kernel/kslew
tests_kernel_kslew_SOURCES = tests/kernel/kslew.c

# The programs and libraries as 'make install' lays them out, staged for
# the guest's initramfs; redone when one of them changes.
KERNEL_TEST_STAGE = tests/kernel/stage
check_DATA = $(KERNEL_TEST_STAGE).stamp
$(KERNEL_TEST_STAGE).stamp: $(bin_PROGRAMS) $(lib_LTLIBRARIES) $(ltt_libexec_PROGRAMS)
	$(AM_V_GEN)rm -rf $(KERNEL_TEST_STAGE) && \
	{ $(MAKE) $(AM_MAKEFLAGS) install-exec \
		DESTDIR='$(abs_top_builddir)/$(KERNEL_TEST_STAGE)' >$(KERNEL_TEST_STAGE).log 2>&1 || \
		{ cat $(KERNEL_TEST_STAGE).log; exit 1; }; } && \
	touch $@

# The stage and the cache of tests/kernel/lib.sh (kernel, module, initramfs),
# removed by make clean through mostlyclean (kmod/local.mk has clean-local,
# and automake refuses a target both conditional and not).
mostlyclean-local: clean-kernel-tests
clean-kernel-tests:
	-rm -rf $(KERNEL_TEST_STAGE) $(KERNEL_TEST_STAGE).stamp $(KERNEL_TEST_STAGE).log \
		tests/kernel/cache tests/kernel/kvm-out
.PHONY: clean-kernel-tests

# Event filters through the raw ABI: hostile programs, mutants, swaps
# (scenario kernel_filter); compiles with src/common's filter compiler.
check_PROGRAMS += tests/kernel/kfilter_client
tests_kernel_kfilter_client_SOURCES = tests/kernel/kfilter_client.c
tests_kernel_kfilter_client_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/kmod
tests_kernel_kfilter_client_LDADD = src/common/libcommon.la
