# bench-ppc.sh: the ppc64le part of make bench. Wall time (QEMU -icount
# hangs this guest at boot) of "echo function > current_tracer" and
# "echo nop > current_tracer", ROUNDS rounds, values in microseconds,
# sorted; then, where the kernel has powerpc/ftrace_sites (the series),
# how many call sites hold an mflr with the tracer off and on:
#   FTN-BENCH ppc on v1 v2 ...      FTN-BENCH ppc off v1 v2 ...
#   FTN-BENCH sites off|on sites=N mflr=M      (the series' checker)
#   FTN-BENCH sites off|on records=N nochecker  (stock: records only)
# scripts/bench-report.sh adds them to build/bench/results.md.
t=/sys/kernel/tracing
sites=/sys/kernel/debug/powerpc/ftrace_sites
rounds=7
msg() { echo "$*"; echo "$*" >&3; }
# sites STATE: one FTN-BENCH sites line from the checker
sites() {
	if [ ! -r $sites ]; then
		msg "FTN-BENCH sites $1 records=$(awk '{ print $1; exit }' \
			$t/dyn_ftrace_total_info) nochecker"
		return
	fi
	awk -v s="$1" '$1 == "sites" { n = $2 }
		$1 ~ /^(mflr|kprobe\(mflr\));/ { m += $2 }
		$1 == "bad" && $2 != 0 { bad = 1 }
		END { printf "FTN-BENCH sites %s sites=%d mflr=%d%s\n", s, n, m,
			bad ? " bad" : "" }' $sites >/tmp/sites
	cat /tmp/sites
	cat /tmp/sites >&3
	! grep -q ' bad$' /tmp/sites
}

sites off || exit 1
echo function >$t/current_tracer || exit 1
sites on || exit 1
echo nop >$t/current_tracer || exit 1
write-time $t/current_tracer $rounds function nop >/tmp/lat || exit 1
for v in function nop; do
	k=on
	[ $v = nop ] && k=off
	msg "FTN-BENCH ppc $k $(awk -v v=$v '$1 == v { print int($2 / 1000) }' \
		/tmp/lat | sort -n | tr '\n' ' ')"
done
exit 0
