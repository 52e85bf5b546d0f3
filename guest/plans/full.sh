# full.sh: the make test plan: every ftracetest case, then our own tests.
. /plans/ftracetest.sh
ftn_ftracetest
for t in /tests/*.sh; do
	[ -e "$t" ] || continue
	echo "== $t"
	if sh "$t"; then r=PASS; else r=FAIL; fi
	ftn-result ours "$(basename "$t" .sh)" "$r"
done
