#!/bin/sh
# Install the Debian packages ltt needs to build and test (idempotent), on
# Debian 12 or 13 (or later): a package this release's archive lacks is
# left out with a line saying so and which tests then skip, never the
# whole install (Debian 13 has no python3-lttnganalyses).
# libssl-dev: TLS between consumers, relays and live viewers; openssl: the
# CLI the TLS tests make their certificates with.
# Run as root (--kernel: mmdebstrap makes the Debian root that
# tests/kernel/test_systemd.sh boots with systemd).  python3-lttnganalyses: the users' analyses, which tests
# run on ltt's kernel traces.  lttng-tools and liblttng-ust-dev: LTTng's
# daemons and tracer, which test_relay_lttng.sh streams to and from, and
# lttng save, whose .lttng files test_lttng_load.sh loads.  python3-lttngust and
# liblttng-ust-agent-java(-jni): LTTng's own agents, which test_lttng_agent.sh
# and test_lttng_java.sh run against ltt's daemon (the latter with
# liblog4j1.2-java and a Java compiler, default-jdk-headless).  systemtap-sdt-dev:
# <sys/sdt.h>, the SDT probes of tests/regression/uprobe_prog.  sqlite3: the
# shell test_trigger_map.sh loads lttctl export-maps' SQL into.  babeltrace
# (1) and iproute2: what lttng-tools' own tests (tests/lttng-tools/run.sh,
# test_lttng_tools_suite.sh) read traces and bring loopback up with.
# libbpf-dev, clang and bpftool: the BPF system call source, its program
# compiled and embedded at build time (optional: configure says without).
# python3-lttng: LTTng's Python bindings, which test_lttng_compat.sh drives
# ltt-sessiond --lttng-compat with, as ROS 2's tracing does.  liblttng-ctl-dev:
# LTTng's control library's headers, which test_lttng_compat_triggers.sh's
# notification client and lttng-tools' own C tests build against.
# debootstrap: the roots of newer Debian releases (scripts/debian-root.sh),
# whose LTTng 2.16 and babeltrace2 2.1 the CTF 2 and LTTng 2.16 tests use.
# libbabeltrace2-dev and libsqlite3-dev: ltt-export (lttctl export-trace,
# doc/sql.md), which reads traces with babeltrace2's library and keeps them
# in SQLite (optional: configure says without); clickhouse-server: the
# server test_export_clickhouse.sh exports into (Debian 12 has it).
# Kernel-module test packages come with
# --kernel; clang and its sanitizer and libFuzzer runtimes
# (scripts/sanitize.sh, scripts/fuzz.sh) with --sanitize.
set -eu

pkgs="build-essential autoconf automake libtool pkg-config
libpopt-dev libxml2-dev uuid-dev libkmod-dev liburcu-dev libssl-dev openssl
babeltrace2 util-linux procps valgrind libxml2-utils strace
python3-lttnganalyses lttng-tools liblttng-ust-dev python3-dev
python3-lttngust liblttng-ust-agent-java liblttng-ust-agent-java-jni
liblog4j1.2-java default-jdk-headless systemtap-sdt-dev sqlite3 babeltrace iproute2 python3-lttng liblttng-ctl-dev
libbpf-dev clang bpftool debootstrap libbabeltrace2-dev libsqlite3-dev clickhouse-server"
for opt in "$@"; do
	case $opt in
	--kernel)
		pkgs="$pkgs qemu-system-x86 linux-image-amd64 linux-headers-amd64
busybox-static kmod cpio zstd xz-utils mmdebstrap
debhelper dh-dkms dh-python dkms lintian bash-completion" ;;
	--sanitize)
		pkgs="$pkgs clang-14 libclang-rt-14-dev" ;;
	*)
		echo "deps.sh: unknown option '$opt' (--kernel, --sanitize)" >&2
		exit 2 ;;
	esac
done

missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "deps.sh: missing packages:$missing; run this script as root to install them" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# what this release's archive has; the rest said, with the tests that skip
# without it
have=""
for p in $missing; do
	if [ -n "$(apt-cache madison "$p" 2>/dev/null)" ]; then
		have="$have $p"
		continue
	fi
	case $p in
	python3-lttnganalyses) why="the lttng-analyses tests (test_*_analyses.sh) skip" ;;
	lttng-tools | liblttng-ust-dev | liblttng-ctl-dev | python3-lttng | python3-lttngust | \
	liblttng-ust-agent-java*)
		why="the tests against Debian's own LTTng skip" ;;
	*) why="the tests that need it skip" ;;
	esac
	echo "deps.sh: $p is not in this release's archive ($(. /etc/os-release && echo "$PRETTY_NAME")): left out; $why" >&2
done
[ -z "$have" ] && exit 0
echo "deps.sh: installing:$have"
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $have >/dev/null
