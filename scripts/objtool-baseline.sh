#!/bin/sh
# objtool-baseline.sh: build the stock base (tag "base" of build/linux,
# without the series) with the same fragments as ARCH-FLAVOUR, from scratch,
# and write its objtool warnings (offsets dropped) to
# expect/objtool-ARCH-FLAVOUR.txt, which scripts/objtool-check.sh compares
# each make test build with.
# Usage: scripts/objtool-baseline.sh ARCH FLAVOUR
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
arch=${1:?usage: objtool-baseline.sh ARCH FLAVOUR} flavour=${2:?}
src=$top/build/stock-src out=$top/build/$arch-$flavour-stock
exp=$top/expect/objtool-$arch-$flavour.txt
"$top/scripts/setup.sh"
"$top/scripts/tree.sh" --lenient
git -C "$top/build/linux" worktree remove --force "$src" 2>/dev/null || true
rm -rf "$src"
git -C "$top/build/linux" worktree add -q --detach "$src" base >/dev/null
SRC=$src O=$out REBUILD=1 ABSENT_OK=1 "$top/scripts/build.sh" "$arch" "$flavour" \
	>"$out.log" 2>&1 || { tail -n 30 "$out.log"; exit 1; }
{
	echo "# objtool warnings of the stock base ($(sed -n "s/^VERSION=//p" "$top/base.pin"))"
	echo "# built as $arch-$flavour (scripts/objtool-baseline.sh); offsets dropped"
	sed -n 's/^.*warning: objtool: //p' "$out.log" | sed 's/+0x[0-9a-f]*//g' | sort -u
} >"$exp"
git -C "$top/build/linux" worktree remove --force "$src"
echo "objtool-baseline: $(grep -vc '^#' "$exp") warnings in $exp"
