#!/bin/sh
# combo-selfcheck.sh: the function_graph pairing check of
# guest/stress/combo.sh (check_graph, with window), run on the host over
# the traces in guest/stress/combo-cases/: each file's first line says
# whether the check must pass or fail it ("# pass: ..." or "# fail: ...";
# "# pass window: ..." checks from where every CPU's events are whole, as
# combo.sh does for a buffer that overran).
# The real trace that found the stock printer's migrated leaf is among
# them, with the same trace less one return; the others are made to look
# like that artifact while hiding a real fault. Fails when any verdict
# differs.
# Usage: scripts/combo-selfcheck.sh
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
combo=$top/guest/stress/combo.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The awk library and the functions, from awk_lib= up to check_function
sed -n '/^awk_lib=/,/^# check_function FILE/p' "$combo" >"$tmp/lib.sh"
grep -q '^check_graph()' "$tmp/lib.sh" ||
	{ echo "combo-selfcheck: no check_graph in $combo" >&2; exit 1; }
n=0 bad=0
for f in "$top"/guest/stress/combo-cases/*.txt; do
	n=$((n + 1))
	want=$(sed -n '1s/^# \(pass\|fail\)\( window\)\{0,1\}:.*/\1/p' "$f")
	[ -n "$want" ] || { echo "$f: no verdict line"; bad=$((bad + 1)); continue; }
	win=0
	sed -n 1p "$f" | grep -q '^# [a-z]* window:' && win=1
	if out=$(sh -c '. "$1"; t0=0; [ "$3" = 0 ] || t0=$(window "$2")
		check_graph "$2" "" "$t0"' sh "$tmp/lib.sh" "$f" "$win"); then
		got=pass
	else
		got=fail
	fi
	echo "$got $(basename "$f"): $(echo "$out" | tail -n 1)"
	[ "$got" = "$want" ] || { echo "  want $want"; bad=$((bad + 1)); }
done
echo "combo-selfcheck: $n traces, $bad wrong"
[ "$n" -gt 0 ] && [ "$bad" -eq 0 ]
