#!/bin/bash
# test_kernel_workload.sh in Debian 13's kernel (trixie, 6.12), the module built by its gcc 14 in a
# trixie root (tests/kernel/lib.sh: LTT_KRELEASE); skipped where the root
# can't be made.
LTT_KRELEASE=trixie
. "$LTT_TOP_SRCDIR/tests/kernel/test_kernel_workload.sh"
