#!/bin/bash
# test_build_trixie_clang.sh - test_build_trixie.sh with Debian 13's clang 19.
exec bash "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/build/test_build_trixie.sh" clang
