#!/bin/bash
# test_kmod_core.sh in Debian sid's newest kernel (7.2 today), the module built by its gcc in a
# sid root (tests/kernel/lib.sh: LTT_KRELEASE); skipped where the root
# can't be made.
LTT_KRELEASE=sid
. "$LTT_TOP_SRCDIR/tests/kernel/test_kmod_core.sh"
