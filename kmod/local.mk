# kmod/: ltt-tracer.ko, built by Kbuild (kmod/Makefile) against the kernel
# headers configure found (--with-kernel-headers, --without-kmod).  In a
# build tree other than the source tree, the sources are copied into
# $(builddir)/kmod first: Kbuild writes its objects next to them.  Every
# file of kmod/ but its tests is listed here (a file missing from the list
# fails the out-of-tree build: tests/kernel builds that way).  The filter
# VM's files (src/filter-vm, objects of the module too: kmod/Kbuild) are
# copied into kmod/filter-vm, not to src/filter-vm, where make would take
# them for the sources of libfiltervm.la; the ABI's headers (src/abi)
# into kmod/abi.
KMOD_FILES = kmod/Kbuild kmod/Makefile kmod/ltt-context.c kmod/ltt-core.c \
	kmod/ltt-event.h kmod/ltt-events.c kmod/ltt-ringbuf.c kmod/ltt-ringbuf.h \
	kmod/ltt-session.c kmod/ltt-statedump.c kmod/ltt-stream.c kmod/ltt-tracer.h \
	kmod/ltt-tracker.c kmod/ltt-kprobes.c kmod/ltt-map.c kmod/ltt-lock.c kmod/ltt-object.c \
	kmod/probes/ltt-probe-block.c kmod/probes/ltt-probe-irq.c \
	kmod/probes/ltt-probe-kmem.c kmod/probes/ltt-probe-logger.c \
	kmod/probes/ltt-probe-net.c kmod/probes/ltt-probe-sched.c \
	kmod/probes/ltt-probe-signal.c kmod/probes/ltt-probe-syscalls.c \
	kmod/probes/ltt-probe-test.c kmod/probes/ltt-probe-lttng-test.c kmod/probes/ltt-probe-timer.c \
	kmod/probes/ltt-probes.h kmod/probes/ltt-user.c kmod/probes/ltt-user.h \
	kmod/scripts/ltt-gen-syscalls.sh kmod/scripts/ltt-gen-tpfeatures.sh \
	kmod/scripts/ltt-syscalls-x86_64.txt kmod/wrapper/ltt-probe-wrapper.h \
	kmod/wrapper/ltt-wrapper.h \
	kmod/ltt-filter.c kmod/ltt-filter.h kmod/lttng-test.c
KMOD_VM_FILES = filter-vm.h filter-bytecode.h filter-libc.h filter-validate.c filter-interp.c
# The kernel/user ABI (src/abi: the ioctls, the packets' layout, the fields
# both kernel backends compute), which the module includes as
# "abi/NAME.h": from ../src in a source tree, from abi/ in a copy.
KMOD_ABI_FILES = ltt-abi.h ltt-packet.h ltt-fields.h
EXTRA_DIST += src/abi/ltt-abi.h src/abi/ltt-packet.h src/abi/ltt-fields.h
EXTRA_DIST += $(KMOD_FILES) kmod/scripts/ltt-build-all.sh kmod/scripts/ltt-kmod-install.sh \
	kmod/dkms.conf.in

# make install-dkms: the module's sources and a dkms.conf in
# DESTDIR/usr/src/ltt-modules-VERSION (DKMS's place, whatever the
# prefix), for `dkms install ltt-modules/VERSION`, which rebuilds the
# module for each kernel installed later (the ltt-modules-dkms package
# of debian/).  It needs no kernel headers: a tree configured
# --without-kmod installs them too.  The filter VM's files go into
# filter-vm/ there, where kmod/Kbuild takes them from, and the ABI's
# headers into abi/.
dkmssrcdir = /usr/src/ltt-modules-$(PACKAGE_VERSION)
CLEANFILES += kmod/dkms.conf
kmod/dkms.conf: $(srcdir)/kmod/dkms.conf.in Makefile
	$(AM_V_GEN)$(MKDIR_P) kmod && \
	$(SED) -e 's|@PACKAGE_VERSION[@]|$(PACKAGE_VERSION)|g' \
		$(srcdir)/kmod/dkms.conf.in > $@.tmp && mv -f $@.tmp $@

install-dkms: kmod/dkms.conf
	@set -e; d='$(DESTDIR)$(dkmssrcdir)'; \
	for f in $(KMOD_FILES); do \
		$(MKDIR_P) "$$d/`dirname $${f#kmod/}`"; \
		$(INSTALL_DATA) $(srcdir)/$$f "$$d/$${f#kmod/}"; \
	done; \
	chmod 0755 "$$d"/scripts/*.sh; \
	$(MKDIR_P) "$$d/filter-vm" "$$d/abi"; \
	for f in $(KMOD_VM_FILES); do \
		$(INSTALL_DATA) $(srcdir)/src/filter-vm/$$f "$$d/filter-vm/$$f"; \
	done; \
	for f in $(KMOD_ABI_FILES); do \
		$(INSTALL_DATA) $(srcdir)/src/abi/$$f "$$d/abi/$$f"; \
	done; \
	$(INSTALL_DATA) kmod/dkms.conf "$$d/dkms.conf"; \
	echo "kmod: sources for DKMS in $$d (then: dkms install ltt-modules/$(PACKAGE_VERSION))"

uninstall-dkms:
	rm -rf '$(DESTDIR)$(dkmssrcdir)'
.PHONY: install-dkms uninstall-dkms

# The module's own tests, run in a guest that loaded it (tests/kernel).
check_PROGRAMS += kmod/tests/ltt-ktest
# Their traces' metadata comes from the session daemon's generator.
KTEST_META = kmod/tests/ltt-ktest-meta.c kmod/tests/ltt-ktest-meta.h $(SESSIOND_META_SOURCES)
kmod_tests_ltt_ktest_SOURCES = kmod/tests/ltt-ktest.c kmod/tests/ltt-ktest-errors.c \
	kmod/tests/ltt-ktest-read.c kmod/tests/ltt-ktest-lazy.c kmod/tests/ltt-ktest-snap.c \
	kmod/tests/ltt-ktest-ctx.c kmod/tests/ltt-ktest-kprobe.c kmod/tests/ltt-ktest-threads.c \
	kmod/tests/ltt-ktest-map.c kmod/tests/ltt-ktest-hotplug.c \
	kmod/tests/ltt-ktest.h $(KTEST_META)
kmod_tests_ltt_ktest_LDADD = src/common/libcommon.la
kmod_tests_ltt_ktest_LDFLAGS = -all-static
check_PROGRAMS += kmod/tests/ltt-ptest
kmod_tests_ltt_ptest_SOURCES = kmod/tests/ltt-ptest.c $(KTEST_META)
kmod_tests_ltt_ptest_LDADD = src/common/libcommon.la
kmod_tests_ltt_ptest_LDFLAGS = -all-static
EXTRA_DIST += kmod/tests/ltt-ktest-all.sh kmod/tests/ltt-ptest-check.sh \
	kmod/tests/ltt-ptest-vm.sh

if BUILD_KMOD
all-local: kmod-all
clean-local: kmod-clean
install-data-local: kmod-install
uninstall-local: kmod-uninstall

kmod-all:
	@if test '$(abs_srcdir)' != '$(abs_builddir)'; then \
		for f in $(KMOD_FILES); do \
			$(MKDIR_P) `dirname $$f` && \
			{ cmp -s $(srcdir)/$$f $$f || cp $(srcdir)/$$f $$f; } || exit 1; \
		done; \
		$(MKDIR_P) kmod/filter-vm kmod/abi && \
		for f in $(KMOD_VM_FILES); do \
			cmp -s $(srcdir)/src/filter-vm/$$f kmod/filter-vm/$$f || \
				cp $(srcdir)/src/filter-vm/$$f kmod/filter-vm/$$f || exit 1; \
		done; \
		for f in $(KMOD_ABI_FILES); do \
			cmp -s $(srcdir)/src/abi/$$f kmod/abi/$$f || \
				cp $(srcdir)/src/abi/$$f kmod/abi/$$f || exit 1; \
		done; \
	fi
	$(AM_V_GEN)$(MAKE) -C kmod KERNELDIR='$(KERNELDIR)' LTT_WERROR='$(LTT_WERROR)'

kmod-clean:
	-$(MAKE) -C kmod KERNELDIR='$(KERNELDIR)' clean

# make install puts the module in DESTDIR/lib/modules/RELEASE/extra, for
# the kernel it was built for, and runs depmod for that kernel (with -b
# DESTDIR when staged; DEPMOD=no skips it): kmod/scripts/ltt-kmod-install.sh.
KMOD_KOS = kmod/ltt-tracer.ko kmod/lttng-test.ko
KMOD_INSTALL = DESTDIR='$(DESTDIR)' DEPMOD='$(DEPMOD)' $(SHELL) $(srcdir)/kmod/scripts/ltt-kmod-install.sh
kmod-install: kmod-all
	@$(KMOD_INSTALL) install '$(KERNELDIR)' $(KMOD_KOS)

kmod-uninstall:
	@$(KMOD_INSTALL) uninstall '$(KERNELDIR)' $(KMOD_KOS)
else
# Configured without kernel headers: say so rather than install nothing
# silently.
install-data-local:
	@echo "kmod: ltt-tracer.ko not installed: configured without kernel headers (--without-kmod, or none found: install linux-headers-amd64 or pass --with-kernel-headers=DIR, then configure again); user-space tracing works without it"
endif
.PHONY: kmod-all kmod-clean kmod-install kmod-uninstall
