/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * dlist.h - a doubly linked list of structs that hold their own prev and
 * next pointers, its head a pointer to the first (NULL: empty).  Macros,
 * so that any such struct is a node; @head and @n are evaluated more than
 * once: pass names, not calls.
 */
#ifndef LTT_COMMON_DLIST_H
#define LTT_COMMON_DLIST_H

/* Put @n (on no list) first on the list @head. */
#define LTT_DLIST_PUSH(head, n) \
	do { \
		(n)->prev = NULL; \
		(n)->next = (head); \
		if ((n)->next) \
			(n)->next->prev = (n); \
		(head) = (n); \
	} while (0)

/* Take @n off the list @head; its own prev and next are left as they were. */
#define LTT_DLIST_UNLINK(head, n) \
	do { \
		if ((n)->prev) \
			(n)->prev->next = (n)->next; \
		else \
			(head) = (n)->next; \
		if ((n)->next) \
			(n)->next->prev = (n)->prev; \
	} while (0)

#endif /* LTT_COMMON_DLIST_H */
