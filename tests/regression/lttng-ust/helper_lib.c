/* SPDX-License-Identifier: LGPL-2.1-only */
/* helper_lib.c - a library helper_app dlopen()s: build id and debug link. */
int helper_lib_value(void);

int helper_lib_value(void)
{
	return 42;
}
