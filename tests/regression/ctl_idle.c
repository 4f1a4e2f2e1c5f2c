// SPDX-License-Identifier: GPL-2.0-only
/*
 * ctl_idle - one libltt-ctl connection used twice, with a pause between
 * (test_sessiond_client_idle.sh):
 *
 *   ctl_idle RUNDIR
 *
 * connects, lists the sessions and prints "FIRST rc=N sessions=M", then
 * waits for a line on stdin (the test sends one once the daemon closed
 * the idle connection), lists again on the same handle and prints
 * "SECOND rc=N sessions=M".  rc is the call's return (0 or -LTT_ERR_*).
 */
#include <stdio.h>
#include <stdlib.h>

#include <ltt/ltt-ctl.h>

static void list(struct ltt_ctl *ctl, const char *what)
{
	struct ltt_session_info *sessions = NULL;
	size_t n = 0;
	int rc = ltt_ctl_list_sessions(ctl, &sessions, &n);

	printf("%s rc=%d sessions=%zu\n", what, rc, rc ? 0 : n);
	fflush(stdout);
	free(sessions);
}

int main(int argc, char **argv)
{
	struct ltt_ctl *ctl;
	char line[64];
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: ctl_idle RUNDIR\n");
		return 2;
	}
	rc = ltt_ctl_connect(argv[1], &ctl);
	if (rc) {
		printf("CONNECT rc=%d\n", rc);
		return 1;
	}
	list(ctl, "FIRST");
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	list(ctl, "SECOND");
	ltt_ctl_disconnect(ctl);
	return 0;
}
