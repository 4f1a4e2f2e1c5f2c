/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * filter.h - map of src/common/filter, LTTng's filter language in user
 * space: parsed, type-checked and compiled for the filter VM
 * (src/filter-vm, which the kernel module builds too).
 *
 *   filter.h            this map
 *   filter-compile.[ch] a parsed filter type-checked against one event's
 *                       fields and compiled to bytecode
 *   filter-parse.[ch]   the language parsed to a tree whose nodes keep
 *                       their position, for messages with a caret
 */
#ifndef LTT_COMMON_FILTER_FILTER_H
#define LTT_COMMON_FILTER_FILTER_H
#endif /* LTT_COMMON_FILTER_FILTER_H */
