/* SPDX-License-Identifier: GPL-2.0-only */
/* The C library header the shared filter sources include: ltt-filter-compat.h. */
#include "ltt-filter-compat.h"
