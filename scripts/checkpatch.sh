#!/bin/sh
# checkpatch.sh: run the tree's scripts/checkpatch.pl --strict on every
# patch of series/ and append one tally line per patch. A patch passes with
# 0 errors, 0 warnings and 0 checks, except for the message types that
# checkpatch.exceptions lists for it, each with its reason.
# Usage: scripts/checkpatch.sh TALLY
# checkpatch.exceptions lines: <patch file> <TYPE> <reason...>, the patch
# file named without its NNNN- prefix so that inserting a patch earlier in
# the series does not orphan the entries of the later ones.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
tally=${1:?usage: checkpatch.sh TALLY}
tree=$top/build/linux
# spdxcheck.py needs Debian's python3 with python3-ply and python3-git, not
# whatever python3 comes first on PATH.
export PATH="/usr/bin:/bin:$PATH"
n=0
for p in "$top"/series/[0-9][0-9][0-9][0-9]-*.patch; do
	[ -e "$p" ] || continue
	b=$(basename "$p")
	[ "$b" = 0000-cover-letter.patch ] && continue
	n=$((n + 1))
	ign=$(awk -v p="${b#[0-9][0-9][0-9][0-9]-}" '$1 == p { printf "%s,", $2 }' \
		"$top/checkpatch.exceptions" 2>/dev/null)
	if out=$(cd "$tree" && ./scripts/checkpatch.pl --strict --quiet \
		--no-summary --show-types ${ign:+--ignore "$ign"} "$p" 2>&1) &&
		[ -z "$out" ]; then
		echo "PASS checkpatch $b" >>"$tally"
	else
		echo "FAIL checkpatch $b" >>"$tally"
		echo "checkpatch: $b:"
		echo "$out" | sed 's/^/  /'
	fi
done
echo "checkpatch: $n patches checked"
