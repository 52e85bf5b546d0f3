#!/bin/sh
# run.sh: set up what is missing, build the kernel and initramfs for ARCH and
# boot them with one guest plan. Used by make run, make shell and make
# ftracetest.
# Usage: scripts/run.sh ARCH PLAN [EXTRA_DIR]
# Env: FLAVOUR (a configs/FLAVOUR.config on top, e.g. debug), CPU, SMP,
#      TIMEOUT, INTERACTIVE, SHOW: as for scripts/boot.sh.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
arch=${1:?usage: run.sh ARCH PLAN [EXTRA_DIR]}
plan=$2 extra=${3:-}
s=$top/scripts
"$s/setup.sh"
"$s/tree.sh" --lenient
"$s/build.sh" "$arch" ${FLAVOUR:-}
o=$top/build/$arch${FLAVOUR:+-$FLAVOUR}
O=$o "$s/initramfs.sh" "$arch" >/dev/null
label=$arch${FLAVOUR:+-$FLAVOUR}${CPU:+-$CPU}
exec "$s/boot.sh" "$arch" "$o/boot-image" "$o/initramfs.cpio.gz" "$plan" \
	"$top/build/log/$(basename "$plan" .sh)-$label" $extra
