#!/bin/sh
# results.sh: compare a guest's FTN-RESULT lines with an expectations file
# and append one tally line per test to TALLY. A test not in the file must
# PASS; a listed test must give exactly its listed result, so a test that
# starts passing, or silently turns UNSUPPORTED, fails the run until the
# file is updated. Listed tests that did not run fail too. An expected
# non-PASS counts as skipped, never as passed.
# Usage: scripts/results.sh LABEL RESULTS EXPECT TALLY
# EXPECT lines: <suite>/<name> <RESULT> <reason...>   (# comments)
set -eu
label=$1 results=$2 expect=$3 tally=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# (a shell killed by a signal runs no EXIT trap: make test's ^C)
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
sed -n 's/^FTN-RESULT \([^ ]*\) \([^ ]*\) \([A-Z]*\)$/\1\/\2 \3/p' "$results" \
	>"$tmp/got"
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$expect" 2>/dev/null |
	awk '{print $1, $2}' >"$tmp/want" || true

awk -v label="$label" '
	FILENAME == ARGV[1] { want[$1] = $2; next }
	{
		seen[$1] = 1
		w = ($1 in want) ? want[$1] : "PASS"
		if ($2 != w)
			printf "FAIL %s %s: %s (expected %s)\n", label, $1, $2, w
		else if (w == "PASS")
			printf "PASS %s %s\n", label, $1
		else
			printf "SKIP %s %s: %s as expected\n", label, $1, w
	}
	END {
		for (t in want)
			if (!(t in seen))
				printf "FAIL %s %s: did not run (expected %s)\n",
					label, t, want[t]
	}' "$tmp/want" "$tmp/got" >"$tmp/tally"
[ -s "$tmp/got" ] || echo "FAIL $label no results at all" >>"$tmp/tally"
# Under each failed test, what the guest printed of it (an ftracetest
# case's log tail, a stress test's last lines), as DETAIL lines: the
# summary at the end of make test then says why, not only what, failed.
console=${results%.results}.console
awk -v label="$label" '
	FILENAME == ARGV[1] {
		if (/^---- log of /) { split($0, w, " "); name = w[4]; n = 0
			cut = 25; next }
		if (/^== \/[^ ]*\.sh$/) { name = $2; sub(/.*\//, "", name)
			sub(/\.sh$/, "", name); n = 0; cut = 0; next }
		if (/^== \/[^ ]*\.sh: exit /) { name = ""; next }
		if (/^FTN-/ || name == "") next
		if (cut && n >= cut) { name = ""; next }
		log_[name, ++n] = $0; nlog[name] = n; next
	}
	{ print }
	$1 == "FAIL" && $2 == label {
		t = $3; sub(/:$/, "", t); sub(/^[^\/]*\//, "", t)
		for (i = nlog[t] > 12 ? nlog[t] - 11 : 1; i <= nlog[t]; i++)
			print "DETAIL " t "| " log_[t, i]
	}' "$console" "$tmp/tally" 2>/dev/null >"$tmp/detail" ||
	cp "$tmp/tally" "$tmp/detail"
cat "$tmp/detail" >>"$tally"
p=$(grep -c '^PASS' "$tmp/tally" || true)
f=$(grep -c '^FAIL' "$tmp/tally" || true)
s=$(grep -c '^SKIP' "$tmp/tally" || true)
echo "results: $label: $p passed, $f failed, $s expected non-pass"
grep '^FAIL' "$tmp/tally" | sed 's/^FAIL /  unexpected: /' || true
[ "$f" -eq 0 ]
