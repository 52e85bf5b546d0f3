#!/bin/sh
# tally.sh: print the closing summary of make test from the tally file: the
# failures (each with its DETAIL lines under it), then one line "N passed,
# N failed, N skipped". Exit non-zero on any failure or on an empty tally.
# Usage: scripts/tally.sh TALLY
set -eu
t=${1:?usage: tally.sh TALLY}
[ -s "$t" ] || { echo "0 passed, 1 failed"; exit 1; }
p=$(grep -c '^PASS' "$t" || true)
f=$(grep -c '^FAIL' "$t" || true)
s=$(grep -c '^SKIP' "$t" || true)
if [ "$f" -gt 0 ]; then
	echo "Failures:"
	sed -n -e 's/^FAIL /  /p' -e 's/^DETAIL /    /p' "$t"
fi
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ]
