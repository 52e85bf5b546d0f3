# bench-ppc.sh: the ppc64le part of make bench. Wall time (QEMU -icount
# hangs this guest at boot) of "echo function > current_tracer" and
# "echo nop > current_tracer", ROUNDS rounds back to back, values in
# microseconds, sorted; where the kernel has powerpc/ftrace_sites (the
# series), how many call sites hold an mflr with the tracer off, on and
# idle again. Then, each time from the idle state (the series: its idle
# pass, shortened to IDLE_MS, has nopped the mflrs out again, so the
# enable pays the prepare; stock: a pause as long), COLD times "function"
# (us), and KPASSES times the attach of up to 500 kprobe events on
# traceable functions one at a time (create, enable), as a tool
# attaching many probes does (ms, /proc/uptime), then their removal:
#   FTN-BENCH ppc on v1 v2 ...      FTN-BENCH ppc off v1 v2 ...
#   FTN-BENCH ppc first v1 v2 ...   FTN-BENCH ppc kprobes-ms m1 m2 ...
#   FTN-BENCH ppc kprobes-n n=N refused=R
#   FTN-BENCH sites off|on|idle sites=N mflr=M      (the series' checker)
#   FTN-BENCH sites off|on|idle records=N nochecker  (stock: records only)
# Then the user stack rows of guest/plans/bench-ustack.sh.
# scripts/bench-report.sh adds them to build/bench/results.md.
t=/sys/kernel/tracing
sites=/sys/kernel/debug/powerpc/ftrace_sites
rounds=7
cold=5
kpasses=3
idle_ms=1000
idle_knob=/sys/kernel/debug/powerpc/ftrace_mflr_idle_ms
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
echo nop >$t/current_tracer || exit 1
write-time $t/current_tracer $rounds function nop >/tmp/lat || exit 1
for v in function nop; do
	k=on
	[ $v = nop ] && k=off
	msg "FTN-BENCH ppc $k $(awk -v v=$v '$1 == v { print int($2 / 1000) }' \
		/tmp/lat | sort -n | tr '\n' ' ')"
done

# idle: wait until the series' idle pass has run (every mflr nopped out
# again), at most 30 s; stock: a pause as long as the idle time
if [ -w $idle_knob ]; then
	echo $idle_ms >$idle_knob || exit 1
fi
idle() {
	sleep 2
	grep -qs '^untraced nop;nop' $sites || return 0
	n=0
	until awk '$1 ~ /^mflr;/ && $2 != 0 { busy = 1 } END { exit busy }' $sites; do
		n=$((n + 1))
		[ $n -le 30 ] || { msg "bench-ppc: the idle pass did not come"; return 1; }
		sleep 1
	done
}

# the enable from nop;nop, COLD times
: >/tmp/first
i=0
while [ $i -lt $cold ]; do
	idle || exit 1
	[ $i -eq 0 ] && { sites idle || exit 1; }
	write-time $t/current_tracer 1 function >>/tmp/first || exit 1
	[ $i -eq 0 ] && { sites on || exit 1; }
	echo nop >$t/current_tracer || exit 1
	i=$((i + 1))
done
msg "FTN-BENCH ppc first $(awk '{ print int($2 / 1000) }' /tmp/first | sort -n | tr '\n' ' ')"

# now_s: seconds since boot, two decimals
now_s() { cut -d' ' -f1 /proc/uptime; }
awk 'NR % 40 == 0 && !index($0, "[") && !index($0, ".") { print $1 }' \
	$t/available_filter_functions |
	head -n 500 >/tmp/kpf
: >/tmp/kpms
p=0
while [ $p -lt $kpasses ]; do
	idle || exit 1
	i=0 refused=0
	t0=$(now_s)
	while read -r f; do
		echo "p:kpb$i $f" >>$t/kprobe_events 2>/dev/null || continue
		i=$((i + 1))
		echo 1 >$t/events/kprobes/kpb$((i - 1))/enable 2>/dev/null ||
			refused=$((refused + 1))
	done </tmp/kpf
	t1=$(now_s)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%d\n", (b - a) * 1000 }' >>/tmp/kpms
	echo 0 >$t/events/kprobes/enable && echo >$t/kprobe_events || exit 1
	p=$((p + 1))
done
msg "FTN-BENCH ppc kprobes-ms $(sort -n /tmp/kpms | tr '\n' ' ')"
msg "FTN-BENCH ppc kprobes-n n=$i refused=$refused"

# The user stack rows, as on x86_64 (wall time here)
runs=5
. /plans/bench-ustack.sh
exit 0
