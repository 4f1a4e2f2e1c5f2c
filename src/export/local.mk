# src/export: ltt-export, run by lttctl export-trace (map in export.h):
# CTF traces into SQLite or ClickHouse, read by babeltrace2's library.
if BUILD_EXPORT
ltt_libexec_PROGRAMS += src/export/ltt-export
src_export_ltt_export_SOURCES = \
	src/export/export.h \
	src/export/main.c \
	src/export/read.c \
	src/export/follow.c \
	src/export/rows.c \
	src/export/class.c \
	src/export/value.c \
	src/export/buf.c \
	src/export/pipe.c \
	src/export/sql-sqlite.c \
	src/export/sql-clickhouse.c \
	src/export/http.c
src_export_ltt_export_CFLAGS = $(AM_CFLAGS) $(BABELTRACE2_CFLAGS) $(SQLITE3_CFLAGS)
src_export_ltt_export_LDADD = src/common/libcommon.la $(BABELTRACE2_LIBS) $(SQLITE3_LIBS)
endif
