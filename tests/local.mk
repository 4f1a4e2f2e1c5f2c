# tests: one TESTS list, TAP through automake's driver.
LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
TEST_EXTENSIONS = .sh
SH_LOG_DRIVER = $(LOG_DRIVER)
# Every test, script or program, under one wall-clock bound (tests/wall-limit.sh).
LOG_COMPILER = $(SHELL) $(top_srcdir)/tests/wall-limit.sh
SH_LOG_COMPILER = $(LOG_COMPILER)
# LTT_TEST_CC, LTT_TEST_CFLAGS: how a test compiles a program against the
# build's libraries (a sanitizer build's need its runtime).
AM_TESTS_ENVIRONMENT = \
	LTT_TOP_BUILDDIR='$(abs_top_builddir)'; export LTT_TOP_BUILDDIR; \
	LTT_TOP_SRCDIR='$(abs_top_srcdir)'; export LTT_TOP_SRCDIR; \
	LTT_TEST_CC='$(CC)'; export LTT_TEST_CC; \
	LTT_TEST_CFLAGS='$(CFLAGS) $(LDFLAGS)'; export LTT_TEST_CFLAGS;

include tests/unit/local.mk
include tests/regression/local.mk
include tests/kernel/local.mk
include tests/fuzz/local.mk
