/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ltt-user.h - copies of user memory for probe field expressions, where
 * the record path cannot take a page fault (preemption is disabled).
 */
#ifndef LTT_USER_H
#define LTT_USER_H

#define LTT_USER_STR_SLOTS	4	/* strings one event may copy */

int ltt_user_init(void);
void ltt_user_exit(void);
const char *ltt_user_string(unsigned long uaddr, unsigned int slot);

#endif /* LTT_USER_H */
