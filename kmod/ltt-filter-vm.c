// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-filter-vm.c - the filter validator and interpreter of user space,
 * the same source compiled into the module: src/common/filter-validate.c
 * and filter-interp.c (LGPL-2.1, ours, also under GPL-2.0 here), their C
 * library taken from compat/ (ltt-filter-compat.h).  One validator and
 * one interpreter for both tracers.
 */
#include "common/filter-validate.c"
#include "common/filter-interp.c"
