# tests: one TESTS list, TAP through automake's driver.
LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
TEST_EXTENSIONS = .sh
SH_LOG_DRIVER = $(LOG_DRIVER)
AM_TESTS_ENVIRONMENT = \
	LTT_TOP_BUILDDIR='$(abs_top_builddir)'; export LTT_TOP_BUILDDIR; \
	LTT_TOP_SRCDIR='$(abs_top_srcdir)'; export LTT_TOP_SRCDIR;

include tests/unit/local.mk
include tests/regression/local.mk
include tests/kernel/local.mk
include tests/fuzz/local.mk
