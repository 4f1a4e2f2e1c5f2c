# tests/unit: C unit tests of src/common, no daemons.  Each links
# libcommon exactly as the daemons do and prints TAP through tap.c.
UNIT_TESTS = \
	tests/unit/test_size \
	tests/unit/test_uri \
	tests/unit/test_names \
	tests/unit/test_codec \
	tests/unit/test_client_proto \
	tests/unit/test_error
check_PROGRAMS += $(UNIT_TESTS)
TESTS += $(UNIT_TESTS)

UNIT_TAP_SOURCES = tests/unit/tap.c tests/unit/tap.h

tests_unit_test_size_SOURCES = tests/unit/test_size.c $(UNIT_TAP_SOURCES)
tests_unit_test_size_LDADD = src/common/libcommon.la

tests_unit_test_uri_SOURCES = tests/unit/test_uri.c $(UNIT_TAP_SOURCES)
tests_unit_test_uri_LDADD = src/common/libcommon.la

tests_unit_test_names_SOURCES = tests/unit/test_names.c $(UNIT_TAP_SOURCES)
tests_unit_test_names_LDADD = src/common/libcommon.la

tests_unit_test_codec_SOURCES = tests/unit/test_codec.c $(UNIT_TAP_SOURCES)
tests_unit_test_codec_LDADD = src/common/libcommon.la

tests_unit_test_client_proto_SOURCES = tests/unit/test_client_proto.c $(UNIT_TAP_SOURCES)
tests_unit_test_client_proto_LDADD = src/common/libcommon.la

tests_unit_test_error_SOURCES = tests/unit/test_error.c $(UNIT_TAP_SOURCES)
tests_unit_test_error_LDADD = src/common/libcommon.la
