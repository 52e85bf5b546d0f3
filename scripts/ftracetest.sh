#!/bin/sh
# ftracetest.sh: run exactly the given ftracetest cases in the booted patched
# kernel and show ftracetest's own per-test lines and summary. A path inside
# the tree's tools/testing/selftests/ftrace runs from the guest's copy; any
# other file or directory on the host is copied into the guest first.
# Usage: scripts/ftracetest.sh ARCH [TEST...]   (no TEST: the whole suite)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
arch=${1:?usage: ftracetest.sh ARCH [TEST...]}
shift
ft=$top/build/linux/tools/testing/selftests/ftrace
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/extra"
args="" n=0
for t; do
	[ -e "$t" ] || { echo "ftracetest: no such test: $t" >&2; exit 2; }
	abs=$(cd "$(dirname "$t")" && pwd)/$(basename "$t")
	case $abs in
	"$ft"/*)
		args="$args /ftrace/${abs#"$ft"/}"
		;;
	*)
		n=$((n + 1))
		mkdir -p "$tmp/extra/$n"
		cp -r "$abs" "$tmp/extra/$n/"
		args="$args /extra/$n/$(basename "$abs")"
		;;
	esac
done
printf '. /plans/ftracetest.sh\nftn_ftracetest%s\n' "$args" >"$tmp/ftracetest.sh"
SHOW=${SHOW:-user} "$top/scripts/run.sh" "$arch" "$tmp/ftracetest.sh" "$tmp/extra"
