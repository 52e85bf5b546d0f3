# ftracetest.sh: guest plan fragment: run ftracetest on the given cases (all
# of test.d without arguments) and print one FTN-RESULT line per case,
# named by its file (with "@instance" for the instance pass), then the
# tail of the log of every case that did not pass.
# Usage (in a plan): ftn_ftracetest [CASE...]

# Cases that measure a wall-clock interval on the guest and fail when the
# host stalls the vCPU inside it. Each of these that fails is run once more,
# by itself; its result is that of the second run, and both are reported
# (figure "ftracetest-retry"). One retry, never more: a real regression
# fails twice.
#   preemptirq/irqsoff_tracer.tc: a 500 ms irqs-off section must show a
#   latency of 500-599 ms; under TCG the guest clock is the host's, so a
#   vCPU thread descheduled (or round-robined out, 100 ms a slice) near
#   the end of the section reads 600 ms or more (seen once in CI, with both
#   lanes of make test loading the two host cores).
FTN_RETRY="preemptirq/irqsoff_tracer.tc"

# FTRACETEST_SKIP=case,case (kernel command line; paths under test.d,
# exactly as the results name them, e.g. event/toplevel-enable.tc): cases
# a whole run (no arguments) leaves out, each reported UNTESTED (and its
# instance pass too, for a case run in an instance), so that an
# expectations file must name it and say why; a name that is no case
# fails the run. The ppc64le debug kernel leaves out
# event/toplevel-enable.tc (README, Known stock bugs); make test's x86_64
# suite leaves out direct/ftrace-direct.tc (make test-full runs it).
ftn_ftracetest() {
	logs=/tmp/ftracetest-logs
	rm -rf "$logs"
	start=$(date +%s)
	if [ $# -eq 0 ] && [ -n "${FTRACETEST_SKIP:-}" ]; then
		skip=$(echo "$FTRACETEST_SKIP" | tr ',' '\n')
		for c in $skip; do
			if [ ! -f "/ftrace/test.d/$c" ]; then
				echo "FTRACETEST_SKIP: no case test.d/$c"
				ftn-result ftracetest "$c" FAIL
				continue
			fi
			ftn-result ftracetest "$c" UNTESTED
			grep -q '^# flags:.*instance' "/ftrace/test.d/$c" &&
				ftn-result ftracetest "$c@instance" UNTESTED
		done
		set -- $(cd /ftrace && find test.d -name '*.tc' | sort |
			grep -vxF "$(echo "$skip" | sed 's|^|test.d/|')")
	fi
	(cd /ftrace && ./ftracetest -k -l "$logs" "$@")
	rc=$?
	sed -n 's/^\[\([0-9]*\)\].*\[\([A-Z]*\)\]$/\1 \2/p' "$logs/ftracetest.log" |
	while read -r n res; do
		f=$(ls "$logs/$n"-*-log.* 2>/dev/null | head -1)
		name=unknown-$n
		[ -z "$f" ] || name=$(ftn_case_name "$f")
		if [ "$res" = FAIL ] && [ -n "$f" ] &&
			ftn_retry_case "$name" "$f"; then
			continue
		fi
		ftn-result ftracetest "$name" "$res"
		[ "$res" = PASS ] || [ -z "$f" ] || ftn_log_tail "$name ($res)" "$f"
	done
	ftn_slowest "$logs" "$start"
	return $rc
}

# ftn_case_name LOG: the case a log is of, as its file under test.d, with
# "@instance" for the instance pass
ftn_case_name() {
	c=$(sed -n '1s/^execute.*: *//p' "$1")
	c=${c#/ftrace/test.d/}
	c=${c#/}
	head -1 "$1" | grep -q '(instance)' && c="$c@instance"
	echo "$c"
}

# ftn_slowest LOGDIR START: the five cases that took longest, as a figure,
# to show where the time of a boot goes. A case's log is last written when
# it ends, so its time is the mtime of its log less that of the case
# before it (the first case's is counted from START, seconds since 1970).
ftn_slowest() {
	prev=$2
	for f in $(ls "$1" | sed -n 's/^\([0-9]*\)-.*-log\..*/\1 &/p' |
		sort -n | cut -d' ' -f2); do
		t=$(stat -c %Y "$1/$f")
		echo "$((t - prev)) $(ftn_case_name "$1/$f")"
		prev=$t
	done | sort -rn | head -n 5 | {
		line=""
		while read -r s n; do
			line="$line $n=${s}s"
		done
		ftn-figure ftracetest-slowest "${line# }"
	}
}

# ftn_retry_case NAME LOG: when NAME is in FTN_RETRY, show the log of its
# failed run, run it again alone and report that result; false otherwise.
ftn_retry_case() {
	case " $FTN_RETRY " in *" $1 "*) ;; *) return 1 ;; esac
	ftn_log_tail "$1 (FAIL, first run; retried once)" "$2"
	rlogs=/tmp/ftracetest-retry
	rm -rf "$rlogs"
	(cd /ftrace && ./ftracetest -k -l "$rlogs" "test.d/$1") \
		</dev/null >/dev/null 2>&1
	res=$(sed -n 's/^\[[0-9]*\].*\[\([A-Z]*\)\]$/\1/p' \
		"$rlogs/ftracetest.log" | head -1)
	ftn-figure ftracetest-retry "$1 first=FAIL retry=${res:-none}"
	ftn-result ftracetest "$1" "${res:-FAIL}"
	[ "$res" = PASS ] ||
		ftn_log_tail "$1 (${res:-FAIL}, retry)" "$rlogs"/1-*-log.*
	return 0
}

# ftn_log_tail WHAT LOG: the end of a case's log, on the console
ftn_log_tail() {
	echo "---- log of $1, last 25 lines:"
	tail -n 25 "$2" 2>/dev/null
}
