# ftracetest.sh: guest plan fragment: run ftracetest on the given cases (all
# of test.d without arguments) and print one FTN-RESULT line per case,
# named by its file (with "@instance" for the instance pass), then the
# tail of the log of every case that did not pass.
# Usage (in a plan): ftn_ftracetest [CASE...]
ftn_ftracetest() {
	logs=/tmp/ftracetest-logs
	rm -rf "$logs"
	(cd /ftrace && ./ftracetest -k -l "$logs" "$@")
	rc=$?
	sed -n 's/^\[\([0-9]*\)\].*\[\([A-Z]*\)\]$/\1 \2/p' "$logs/ftracetest.log" |
	while read -r n res; do
		f=$(ls "$logs/$n"-*-log.* 2>/dev/null | head -1)
		name=unknown-$n
		if [ -n "$f" ]; then
			name=$(sed -n '1s/^execute.*: *//p' "$f")
			name=${name#/ftrace/test.d/}
			name=${name#/}
			head -1 "$f" | grep -q '(instance)' && name="$name@instance"
		fi
		ftn-result ftracetest "$name" "$res"
		if [ "$res" != PASS ] && [ -n "$f" ]; then
			echo "---- log of $name ($res), last 25 lines:"
			tail -n 25 "$f"
		fi
	done
	return $rc
}
