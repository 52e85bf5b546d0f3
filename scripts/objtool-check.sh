#!/bin/sh
# objtool-check.sh: compare the objtool warnings of a complete build (its
# log) with those of the stock base built the same way (BASELINE, made by
# scripts/objtool-baseline.sh) and append one tally line per new warning,
# or one PASS line. Offsets are ignored: they move with any code change.
# Usage: scripts/objtool-check.sh BUILD_LOG BASELINE LABEL TALLY
set -eu
log=$1 base=$2 label=$3 tally=$4
norm() { sed -n 's/^.*warning: objtool: //p' "$@" | sed 's/+0x[0-9a-f]*//g' | sort -u; }
if [ ! -f "$base" ]; then
	echo "FAIL objtool $label: no baseline $base (make objtool-baseline)" >>"$tally"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# (a shell killed by a signal runs no EXIT trap: make test's ^C)
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
norm "$log" >"$tmp/got"
grep -v '^#' "$base" | sort -u >"$tmp/base"
comm -23 "$tmp/got" "$tmp/base" >"$tmp/new"
if [ -s "$tmp/new" ]; then
	sed "s/^/FAIL objtool $label: new warning: /" "$tmp/new" >>"$tally"
else
	echo "PASS objtool $label: $(wc -l <"$tmp/got") warnings, none new against the stock base" >>"$tally"
fi
