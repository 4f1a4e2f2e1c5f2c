// SPDX-License-Identifier: LGPL-2.1-only
/*
 * export_maps.c - lttctl export-maps: every counter of a session's map
 * channels as an SQL script for SQLite, in LTTng 2.16's schema (tables
 * channels, groups, keys, entries and the vmap view), one transaction,
 * so that `lttctl export-maps | sqlite3 DB` loads them (doc/maps.md).
 *
 * ltt's rows: one group per map channel and user (type user-per-user,
 * owner_id the uid, owner_name the user's name) or, for a per-process
 * map, per program (user-per-process, owner_id the pid, owner_name NULL)
 * and the shared set of the programs gone (shared, no owner); one entry
 * per key of the group with its value summed over the CPUs (part_id
 * NULL: the whole group), has_overflow when the sum did not fit the
 * value type.
 */
#include <inttypes.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl/ctl.h"
#include "ctl/util.h"

enum { VAL_SESSION, VAL_FORMAT, NR_VALS };

static const char schema[] =
	"CREATE TABLE channels (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  name TEXT NOT NULL,\n"
	"  type TEXT NOT NULL CHECK (type IN ('kernel', 'user')),\n"
	"  UNIQUE (name, type)\n"
	");\n"
	"CREATE TABLE groups (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  channel_id INTEGER NOT NULL REFERENCES channels(id),\n"
	"  type TEXT NOT NULL CHECK (type IN ('kernel-global', 'user-per-user', "
	"'user-per-process', 'shared')),\n"
	"  owner_id INTEGER,\n"
	"  owner_name TEXT,\n"
	"  value_type TEXT NOT NULL CHECK (value_type IN ('signed-int-32', 'signed-int-64')),\n"
	"  CHECK ((owner_id IS NULL) = (type NOT IN ('user-per-user', 'user-per-process')))\n"
	");\n"
	"CREATE TABLE keys (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  name TEXT NOT NULL UNIQUE\n"
	");\n"
	"CREATE TABLE entries (\n"
	"  group_id INTEGER NOT NULL REFERENCES groups(id),\n"
	"  part_id INTEGER,\n"
	"  key_id INTEGER NOT NULL REFERENCES keys(id),\n"
	"  value INTEGER NOT NULL,\n"
	"  has_overflow INTEGER NOT NULL CHECK (has_overflow IN (0, 1))\n"
	");\n"
	"CREATE VIEW vmap AS\n"
	"  SELECT c.name AS channel_name, c.type AS channel_type, g.type AS group_type,\n"
	"         g.owner_id, g.owner_name, g.value_type, e.part_id, k.name AS key,\n"
	"         e.value, e.has_overflow\n"
	"  FROM entries e\n"
	"  JOIN groups g ON e.group_id = g.id\n"
	"  JOIN channels c ON g.channel_id = c.id\n"
	"  JOIN keys k ON e.key_id = k.id;\n";

/* @s as an SQL string literal, quotes doubled. */
static void put_sql_str(const char *s)
{
	putchar('\'');
	for (; *s; s++) {
		if (*s == '\'')
			putchar('\'');
		putchar(*s);
	}
	putchar('\'');
}

/* The id of key @key in the keys table so far (@keys, @nr), added if new; 0 on no memory. */
static size_t key_id(const char ***keys, size_t *nr, const char *key)
{
	const char **v;
	size_t i;

	for (i = 0; i < *nr; i++)
		if (!strcmp((*keys)[i], key))
			return i + 1;
	v = realloc(*keys, (*nr + 1) * sizeof(*v));
	if (!v)
		return 0;
	*keys = v;
	v[(*nr)++] = key;
	printf("INSERT INTO keys (id, name) VALUES (%zu, ", *nr);
	put_sql_str(key);
	puts(");");
	return *nr;
}

/* The group row of entry @e's set (id @g, channel @chan, value type @vt; @kernel: its one set). */
static void put_group(const struct ltt_map_entry *e, bool kernel, size_t g, size_t chan,
		      const char *vt)
{
	const struct passwd *pw = e->pid || kernel ? NULL : getpwuid((uid_t)e->uid);

	printf("INSERT INTO groups (id, channel_id, type, owner_id, owner_name, value_type) "
	       "VALUES (%zu, %zu, ", g, chan);
	if (kernel)
		fputs("'kernel-global', NULL, NULL", stdout);
	else if (e->pid < 0)
		fputs("'shared', NULL, NULL", stdout);
	else if (e->pid)
		printf("'user-per-process', %" PRId64 ", NULL", e->pid);
	else
		printf("'user-per-user', %" PRId64 ", ", e->uid);
	if (!e->pid && !kernel && pw)
		put_sql_str(pw->pw_name);
	else if (!e->pid && !kernel)
		fputs("NULL", stdout);
	printf(", '%s');\n", vt);
}

/* The rows of map @m (channel id @chan); groups numbered from *@group. 0 or -1 (no memory). */
static int put_map(const struct ltt_map_desc *m, size_t chan, size_t *group, const char ***keys,
		   size_t *nr_keys)
{
	int64_t uid = -2, pid = -2;
	size_t k, g = 0;
	uint32_t i;

	printf("INSERT INTO channels (id, name, type) VALUES (%zu, ", chan);
	put_sql_str(m->attr.name);
	printf(", '%s');\n", m->attr.ownership == LTT_MAP_OWNER_KERNEL ? "kernel" : "user");
	for (i = 0; i < m->nr_entries; i++) {
		const struct ltt_map_entry *e = &m->entries[i];

		if (e->uid != uid || e->pid != pid) {	/* a set's entries come together */
			uid = e->uid;
			pid = e->pid;
			g = ++*group;
			put_group(e, m->attr.ownership == LTT_MAP_OWNER_KERNEL, g, chan,
				  ltt_map_value_type_name(m->attr.value_type));
		}
		k = key_id(keys, nr_keys, e->key);
		if (!k)
			return -1;
		printf("INSERT INTO entries (group_id, part_id, key_id, value, has_overflow) "
		       "VALUES (%zu, NULL, %zu, %" PRId64 ", %d);\n", g, k, e->value,
		       e->overflow ? 1 : 0);
	}
	return 0;
}

static int export(const struct ctl_ctx *ctx, poptContext pc, void *arg)
{
	char **v = arg;
	char current[LTT_NAME_MAX];
	struct ltt_map_desc *maps;
	const char **keys = NULL;
	const char *session;
	size_t n, i, group = 0, nr_keys = 0;
	const char **args;
	int nr = ctl_util_args(pc, &args);
	int ret = ctl_util_check_nr_args(ctx, args, nr, 0);

	if (ret)
		return ret;
	if (v[VAL_FORMAT] && strcmp(v[VAL_FORMAT], "sqlite"))
		return ctl_util_usage_error(ctx, "invalid --format '%s': give sqlite (the only "
					    "one)", v[VAL_FORMAT]);
	/* An SQL script on stdout: no document could hold it (doc/mi.md). */
	if (ctl_out_format() != CTL_OUT_TEXT) {
		ctl_out_error(LTT_ERR_MI_UNSUPPORTED, "export-maps: %s",
			      ltt_strerror(LTT_ERR_MI_UNSUPPORTED));
		return CTL_EXIT_FAILURE;
	}
	ret = ctl_maps_fetch(ctx, v[VAL_SESSION], current, sizeof(current), &session, &maps, &n);
	if (ret)
		return ret;
	printf("-- the map channels of session %s, exported by lttctl\nBEGIN TRANSACTION;\n%s",
	       session, schema);
	for (i = 0; i < n && !ret; i++)
		ret = put_map(&maps[i], i + 1, &group, &keys, &nr_keys);
	puts(ret ? "ROLLBACK;" : "COMMIT;");
	free(keys);
	ltt_ctl_maps_free(maps, n);
	if (ret) {
		ctl_out_error(LTT_ERR_NOMEM, "export-maps: %s", ltt_strerror(LTT_ERR_NOMEM));
		return CTL_EXIT_FAILURE;
	}
	return fflush(stdout) ? CTL_EXIT_FAILURE : CTL_EXIT_OK;
}

int cmd_export_maps(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	char *values[NR_VALS] = { 0 };
	struct poptOption options[] = {
		CTL_UTIL_SESSION_OPTION(VAL_SESSION),
		{ "format", 'f', POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_FORMAT,
		  "sqlite (the default and only one): an SQL script for sqlite3", "FORMAT" },
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	return ctl_util_run(ctx, argc, argv, options, values, NR_VALS, export, values);
}
