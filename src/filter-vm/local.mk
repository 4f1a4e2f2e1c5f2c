# src/filter-vm: the filter VM (bytecode, validator, interpreter; map in
# filter-vm.h) that libltt-ust and the kernel module both run.  The .c
# files are compiled twice: here into libfiltervm.la, which libcommon.la
# carries to every program and test that links it, and by the module's
# Kbuild as objects of ltt-tracer.ko (kmod/Kbuild).  The per-library
# CFLAGS give these objects a prefixed name (libfiltervm_la-*.o), never
# the module's filter-*.o, which Kbuild writes here when it builds in a
# source tree (configured in place, or make -C kmod).
noinst_LTLIBRARIES += src/filter-vm/libfiltervm.la
src_filter_vm_libfiltervm_la_SOURCES = \
	src/filter-vm/filter-vm.h \
	src/filter-vm/filter-bytecode.h \
	src/filter-vm/filter-libc.h \
	src/filter-vm/filter-validate.c \
	src/filter-vm/filter-interp.c
src_filter_vm_libfiltervm_la_CFLAGS = $(AM_CFLAGS) $(UST_GC_CFLAGS)
