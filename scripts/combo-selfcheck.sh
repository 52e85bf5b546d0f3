#!/bin/sh
# combo-selfcheck.sh: the function_graph pairing check of
# guest/stress/combo.sh (check_graph, with window), run on the host over
# the traces in guest/stress/combo-cases/: each file's first line says
# whether the check must pass or fail it ("# pass: ..." or "# fail: ...";
# "# pass window 0 1: ..." checks from where the events of CPUs 0 and 1,
# whose buffers overran, are whole, as combo.sh does for a buffer that
# overran).
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
	want=$(sed -n '1s/^# \(pass\|fail\)\( window\( [0-9][0-9]*\)\{1,\}\)\{0,1\}:.*/\1/p' "$f")
	[ -n "$want" ] || { echo "$f: no verdict line"; bad=$((bad + 1)); continue; }
	# the CPUs whose buffers overran, if any
	cpus=$(sed -n '1s/^# [a-z]* window\(\( [0-9][0-9]*\)\{1,\}\):.*/\1/p' "$f")
	if out=$(sh -c '. "$1"; t0=0; [ -z "$3" ] || t0=$(window "$2" "$3")
		check_graph "$2" "" "$t0"' sh "$tmp/lib.sh" "$f" "$cpus"); then
		got=pass
	else
		got=fail
	fi
	echo "$got $(basename "$f"): $(echo "$out" | tail -n 1)"
	[ "$got" = "$want" ] || { echo "  want $want"; bad=$((bad + 1)); }
done
# overran_cpus on a made-up tracefs directory: only the CPUs whose
# "overrun:" is above 0 (not "commit overrun:"), two-digit numbers too
sed -n '/^overran_cpus()/,/^}/p' "$combo" >"$tmp/oc.sh"
for c in 0:0:3 1:239:0 2:0:0 10:4:0; do
	mkdir -p "$tmp/tr/per_cpu/cpu${c%%:*}"
	o=${c#*:}
	printf 'entries: 5\noverrun: %s\ncommit overrun: %s\n' "${o%:*}" \
		"${o#*:}" >"$tmp/tr/per_cpu/cpu${c%%:*}/stats"
done
oc=$(sh -c '. "$1"; overran_cpus "$2"' sh "$tmp/oc.sh" "$tmp/tr" |
	tr ' ' '\n' | sort -n | tr '\n' ' ')
n=$((n + 1))
if [ "$oc" = "1 10 " ]; then
	echo "pass overran_cpus: $oc"
else
	echo "fail overran_cpus: \"$oc\", want \"1 10 \""
	bad=$((bad + 1))
fi
echo "combo-selfcheck: $n checks, $bad wrong"
[ "$n" -gt 0 ] && [ "$bad" -eq 0 ]
