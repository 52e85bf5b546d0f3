# ftracetest.sh: guest plan fragment: run ftracetest on the given cases (all
# of test.d without arguments) and print one FTN-RESULT line per case,
# named by its file (with "@instance" for the instance pass).
# Usage (in a plan): ftn_ftracetest [CASE...]
ftn_ftracetest() {
	logs=/tmp/ftracetest-logs
	rm -rf "$logs"
	(cd /ftrace && ./ftracetest -v -k -l "$logs" "$@")
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
	done
	return $rc
}
