# combo.sh: the series' features together with the stock tracers and every
# event system, under a workload that forks, execs, sleeps, takes signals
# and spins in user space. COMBO_ROUNDS rounds (kernel command line;
# default 12, 0: not run), each drawn from COMBO_SEED (default: the time,
# printed): the top-level tracer (function, function_graph, the profiler,
# the stack tracer, each latency tracer configured; one per round in turn,
# so that 12 rounds run each once), 1-3 instances running function_graph,
# each with its own filter, a share of the event systems (all of them
# over the run), kprobe and kretprobe events on functions the graph
# tracers hook, options/userstacktrace or userstacktrace_deferred, and
# recursed_functions recording throughout. Checks per round:
# - every deferred-stack request (cookie) in a buffer has its stack;
# - in each function_graph instance, every return names the function of
#   the entry it closes (per task, funcgraph-tail), and every function
#   traced is inside the instance's filter; the top-level function tracer
#   too;
# - the probes and the profiler counted hits, the stack tracer a stack;
# - no kernel report on the console meanwhile (counted from dmesg; the
#   console scan fails the boot too).
# A buffer that overran (the event systems with the most events, the
# sched and preemptirq ones, fill 4 MiB a CPU in a second under TCG) is
# checked from where every CPU's part of it is whole (window() below) and
# says so (window=T0, lost=N). The latency tracers show their snapshot
# buffer, not the live one: their rounds ask for no deferred stacks at
# the top level, where nothing could check them (the last instance does).
# Prints "combo round N: ..." per round, then what the run covered.
t=/sys/kernel/tracing
rounds=${COMBO_ROUNDS:-12}
[ "$rounds" -gt 0 ] || exit 77
seed=${COMBO_SEED:-$(date +%s)}
echo "combo: seed $seed, $rounds rounds (COMBO_SEED=$seed repeats the draws)"
tmp=/tmp/combo
rm -rf $tmp
mkdir -p $tmp

pat='Kernel panic|BUG:|kernel BUG at|WARNING:|Oops|Unable to handle kernel'
pat="$pat|general protection fault|ftrace bug|ftrace faulted|possible circular"
pat="$pat|possible recursive|inconsistent lock state|suspicious RCU usage"
pat="$pat|KASAN:|UBSAN:|detected stall|soft lockup|blocked for more than"
pat="$pat|list_add corruption|list_del corruption|refcount_t:|kfence:"

# rnd N: a number below N from the seeded sequence (in $r_out)
r=$seed
rnd() {
	r=$(((r * 1103515245 + 12345) % 2147483648))
	r_out=$(((r / 65536) % $1))
}

# Filters: functions the workload reaches, in task, softirq and hardirq
# context, and the paths the series changes (fork, exit, task work)
set -- "vfs_read ksys_read" "vfs_write ksys_write" "do_sys_openat2 *_open" \
	"kernel_clone copy_process" "do_exit do_group_exit" \
	"task_work_run" "schedule* try_to_wake_up" \
	"__do_softirq run_timer_softirq" "*kill_pid_info send_signal*" \
	"do_nanosleep hrtimer_nanosleep" "begin_new_exec"
nglobs=$#
glob() { # glob N FILTERS...: FILTERS' Nth (from 0), in $g_out
	eval "g_out=\${$(($1 + 2))}"
}

tracers="function function_graph"
[ -e $t/function_profile_enabled ] && tracers="$tracers profiler"
[ -e /proc/sys/kernel/stack_tracer_enabled ] && tracers="$tracers stack"
for x in irqsoff preemptoff preemptirqsoff wakeup wakeup_rt wakeup_dl; do
	grep -qw $x $t/available_tracers && tracers="$tracers $x"
done
ntracers=$(echo $tracers | wc -w)
systems=$(ls $t/events | while read -r s; do
	[ -d $t/events/$s ] && [ "$s" != ftrace ] && echo "$s"
done)
nsys=$(echo $systems | wc -w)
per=$(((nsys + rounds - 1) / rounds))
deferred=0
[ -e $t/options/userstacktrace_deferred ] && deferred=1
recursed=$t/recursed_functions

# Workload: forks, execs, reads and writes, sleeps, a CPU-bound user loop taking
# signals, and a deep user stack spinning with syscalls
workload() {
	(while :; do cat /proc/version; done) >/dev/null &
	wl="$!"
	(while :; do sleep 1; done) &
	wl="$wl $!"
	(trap 'n=$((n + 1))' USR1; while :; do :; done) &
	rcv=$!
	wl="$wl $rcv"
	(while kill -USR1 $rcv 2>/dev/null; do sleep 1; done) &
	wl="$wl $!"
	ustack-deep 24 100000000 &
	wl="$wl $!"
}

# The awk functions the checks share: a line's CPU and timestamp (the
# function and event formats, and function_graph's with funcgraph-abstime)
# and the filter globs as regular expressions
awk_lib='
function cpu_ts(line,  f) {
	cpu = -1; ts = -1
	if (match(line, /\[[0-9]+\]/)) {
		cpu = substr(line, RSTART + 1, RLENGTH - 2) + 0
		if (match(line, / [0-9]+\.[0-9]+: /))
			ts = substr(line, RSTART + 1, RLENGTH - 3) + 0
	} else if (match(line, /^ *[0-9]+\.[0-9]+ \| +[0-9]+\)/)) {
		f = substr(line, RSTART, RLENGTH)
		ts = f + 0; sub(/.*\| +/, "", f); cpu = f + 0
	}
}
function globs_init(globs,  i) {
	n = split(globs, g, " ")
	for (i = 1; i <= n; i++) {
		gsub(/\./, "\\.", g[i]); gsub(/\*/, ".*", g[i])
		g[i] = "^" g[i] "$" }
}
function inside(f,  i) {
	if (!n) return 1
	for (i = 1; i <= n; i++) if (f ~ g[i]) return 1
	return 0
}
'

# window FILE: where the buffers of every CPU are whole. A buffer that
# overran lost its oldest events, each CPU up to its own first event, so
# the checks start at the latest of the CPUs' first timestamps.
window() {
	awk "$awk_lib"'
	{ cpu_ts($0); if (cpu >= 0 && ts >= 0 && !(cpu in first)) first[cpu] = ts }
	END { t0 = 0; for (c in first) if (first[c] > t0) t0 = first[c]
		printf "%.6f\n", t0 }' "$1"
}

# check_graph FILE GLOBS T0: in a function_graph buffer (funcgraph-proc,
# -tail, -abstime) from T0 on, every return closes its task's innermost
# entry, and every function is inside GLOBS (empty: not checked).
# Prints the counts and each problem.
check_graph() {
	awk -v globs="$2" -v t0="$3" "$awk_lib"'
	BEGIN { globs_init(globs) }
	/LOST [0-9]+ EVENTS/ { lost++; delete depth; next }
	/^#/ || !/\|/ { next }
	{ cpu_ts($0); if (ts >= 0 && ts < t0) next
	  k = split($0, p, "|"); text = p[k]; who = ""
	  for (j = 1; j < k; j++) if (p[j] ~ /[0-9]+\) /) who = p[j]
	  if (!match(who, /-[0-9]+ *$/)) next
	  pid = substr(who, RSTART + 1, RLENGTH - 1) + 0
	  sub(/^ +/, "", text); sub(/ +$/, "", text) }
	text ~ /^[A-Za-z0-9_.]+\(\) \{$/ {
		f = text; sub(/\(.*/, "", f); entries++
		if (!inside(f)) { print "outside-filter " f; bad++ }
		st[pid, ++depth[pid]] = f; next }
	text ~ /^[A-Za-z0-9_.]+\(\);$/ {
		f = text; sub(/\(.*/, "", f); leaves++
		if (!inside(f)) { print "outside-filter " f; bad++ }
		next }
	text ~ /^\} \/\* [A-Za-z0-9_.]+ \*\/$/ {
		f = text; sub(/^\} \/\* /, "", f); sub(/ \*\/$/, "", f)
		returns++
		if (!depth[pid]) { early++; next }
		if (st[pid, depth[pid]] != f) {
			print "task " pid " returned from " f " inside " \
				st[pid, depth[pid]]; bad++ }
		depth[pid]--; next }
	END { for (x in depth) open += depth[x]
		printf "graph entries=%d returns=%d leaves=%d early=%d open=%d lost=%d\n",
			entries, returns, leaves, early, open, lost
		exit bad > 0 }' "$1"
}

# check_function FILE GLOBS T0: every function traced from T0 on is
# inside GLOBS
check_function() {
	awk -v globs="$2" -v t0="$3" "$awk_lib"'
	BEGIN { globs_init(globs) }
	/ <-/ { cpu_ts($0); if (ts >= 0 && ts < t0) next
		f = $0; sub(/ <-.*/, "", f); sub(/.* /, "", f); calls++
		if (!inside(f)) { print "outside-filter " f; bad++ } }
	END { printf "function calls=%d\n", calls; exit bad > 0 }' "$1"
}

# check_deferred FILE T0: every deferred request from T0 on has exactly
# one stack (a stack comes after its request, so the window holds it)
check_deferred() {
	awk -v t0="$2" "$awk_lib"'
	{ c = ""; if (match($0, /cookie=[0-9a-f]+/))
		c = substr($0, RSTART, RLENGTH) }
	/<user stack deferred> cookie=/ { cpu_ts($0)
		if (ts >= 0 && ts < t0) next
		want[c] = 1; reqs++ }
	/<user stack unwind> cookie=/ { got[c]++; stacks++ }
	END { for (c in want) { cookies++
			if (!(c in got)) { print "unserved " c; bad++ } }
		for (c in got) if (got[c] > 1) { print "twice " c; bad++ }
		printf "deferred requests=%d cookies=%d stacks=%d\n", reqs,
			cookies, stacks
		exit bad > 0 }' "$1"
}

overran() { # overran DIR: events the buffer of DIR dropped
	cat "$1"/per_cpu/cpu*/stats |
		awk '/^overrun:/ { n += $2 } END { print n + 0 }'
}

reports_before=$(dmesg | grep -cE "$pat")
fails=0
covered_sys=""
covered_tr=""
i=0
while [ $i -lt "$rounds" ]; do
	bad=""
	# The tracer: each in turn, from a seeded start
	[ $i -eq 0 ] && { rnd "$ntracers"; first=$r_out; }
	set -- $tracers
	shift $(((first + i) % ntracers))
	tracer=$1
	# Its filter, and one per instance
	rnd "$nglobs"
	set -- "vfs_read ksys_read" "vfs_write ksys_write" \
		"do_sys_openat2 *_open" "kernel_clone copy_process" \
		"do_exit do_group_exit" "task_work_run" \
		"schedule* try_to_wake_up" "__do_softirq run_timer_softirq" \
		"*kill_pid_info send_signal*" "do_nanosleep hrtimer_nanosleep" \
		"begin_new_exec"
	glob "$r_out" "$@"
	topf=$g_out
	rnd 3
	ninst=$((r_out + 1))
	insts=""
	n=0
	while [ $n -lt $ninst ]; do
		rnd "$nglobs"
		glob "$r_out" "$@"
		eval "if$n=\$g_out"
		insts="$insts c$n"
		n=$((n + 1))
	done
	# Its share of the event systems
	sys=$(echo $systems | tr ' ' '\n' | awk -v a=$((i * per)) -v b=$(((i + 1) * per)) \
		'NR > a && NR <= b')
	[ -n "$sys" ] || { rnd "$nsys"; sys=$(echo $systems | tr ' ' '\n' |
		sed -n "$((r_out + 1))p"); }
	rnd 3
	ustk=$r_out	# 0: none, 1: userstacktrace, 2: userstacktrace_deferred
	[ $ustk -eq 2 ] && [ $deferred -eq 0 ] && ustk=1
	case $tracer in
	irqsoff | preempt* | wakeup*) [ $ustk -eq 2 ] && ustk=1 ;;
	esac
	rnd 2
	probes=$r_out
	covered_tr="$covered_tr $tracer"
	covered_sys="$covered_sys $sys"

	echo 0 >$t/tracing_on
	echo 4096 >$t/buffer_size_kb
	echo global >$t/trace_clock
	echo >$t/trace
	echo "$topf" >$t/set_ftrace_filter
	echo "$topf" >$t/stack_trace_filter 2>/dev/null
	for s in $sys; do
		echo 1 >$t/events/$s/enable || bad="$bad enable-$s"
	done
	case $ustk in
	1) echo 1 >$t/options/userstacktrace ;;
	2) echo 1 >$t/options/userstacktrace_deferred ;;
	esac
	if [ $probes -eq 1 ]; then
		# Probes on functions the graph tracers may hook too: kprobes
		# through ftrace, a kretprobe's return beside fgraph's
		{ echo 'p:combo/kp_read vfs_read'
		  echo 'r:combo/kr_read vfs_read'
		  echo 'p:combo/kp_clone kernel_clone'
		  echo 'p:combo/kp_tw task_work_run'
		} >>$t/kprobe_events || bad="$bad kprobe_events"
		echo 1 >$t/events/combo/enable || bad="$bad kprobes-enable"
	fi
	n=0
	for c in $insts; do
		d=$t/instances/$c
		mkdir $d || bad="$bad mkdir-$c"
		echo 2048 >$d/buffer_size_kb
		echo global >$d/trace_clock
		eval "echo \"\$if$n\"" >$d/set_ftrace_filter ||
			bad="$bad filter-$c"
		echo 1 >$d/options/funcgraph-proc
		echo 1 >$d/options/funcgraph-tail
		echo 1 >$d/options/funcgraph-abstime
		# The last instance asks for deferred stacks of its events
		if [ $n -eq $((ninst - 1)) ] && [ $deferred -eq 1 ]; then
			echo 1 >$d/options/userstacktrace_deferred
			echo 1 >$d/events/sched/sched_process_exec/enable
			echo 1 >$d/events/signal/signal_deliver/enable
		fi
		echo function_graph >$d/current_tracer || bad="$bad tracer-$c"
		n=$((n + 1))
	done
	case $tracer in
	profiler) echo 1 >$t/function_profile_enabled || bad="$bad profiler" ;;
	stack) echo 1 >/proc/sys/kernel/stack_tracer_enabled ||
		bad="$bad stack-tracer" ;;
	function_graph)
		echo 1 >$t/options/funcgraph-proc
		echo 1 >$t/options/funcgraph-tail
		echo 1 >$t/options/funcgraph-abstime
		echo function_graph >$t/current_tracer || bad="$bad $tracer" ;;
	*) echo "$tracer" >$t/current_tracer || bad="$bad $tracer" ;;
	esac
	echo 1 >$t/tracing_on

	workload
	rnd 3
	sleep $((r_out + 2))
	# shellcheck disable=SC2086
	kill $wl 2>/dev/null
	wait 2>/dev/null

	echo 0 >$t/tracing_on
	for c in $insts; do
		echo 0 >$t/instances/$c/tracing_on
	done
	case $tracer in
	profiler)
		echo 0 >$t/function_profile_enabled
		hits=$(cat $t/trace_stat/function* | awk '$2 ~ /^[0-9]+$/ { n += $2 } END { print n + 0 }')
		[ "$hits" -gt 0 ] || bad="$bad profiler-no-hits"
		;;
	stack)
		echo 0 >/proc/sys/kernel/stack_tracer_enabled
		[ "$(cat $t/stack_max_size)" -gt 0 ] || bad="$bad no-stack"
		echo 0 >$t/stack_max_size
		;;
	esac
	# The top level's buffer
	cat $t/trace >$tmp/top
	lost=$(overran $t)
	t0=0
	res=""
	# (a latency tracer's top level reads its snapshot: nothing checked)
	case $tracer in
	irqsoff | preempt* | wakeup*) lost=0 ;;
	esac
	[ "$lost" -eq 0 ] || { t0=$(window $tmp/top); res=" top:[window=$t0 lost=$lost]"; }
	case $tracer in
	function)
		x=$(check_function $tmp/top "$topf" $t0) || bad="$bad top-function"
		res="$res top:[$x]" ;;
	function_graph)
		x=$(check_graph $tmp/top "$topf" $t0) || bad="$bad top-graph"
		res="$res top:[$x]" ;;
	esac
	if [ $ustk -eq 2 ]; then
		x=$(check_deferred $tmp/top $t0) || bad="$bad top-deferred"
		res="$res top:[$x]"
	fi
	if [ $probes -eq 1 ]; then
		for p in kp_read kr_read kp_clone; do
			h=$(awk -v p=$p '$1 == p { print $2 }' $t/kprobe_profile)
			[ "${h:-0}" -gt 0 ] || bad="$bad no-hits-$p"
		done
	fi
	n=0
	for c in $insts; do
		d=$t/instances/$c
		cat $d/trace >$tmp/$c
		lost=$(overran $d)
		t0=0
		[ "$lost" -eq 0 ] || { t0=$(window $tmp/$c); res="$res $c:[window=$t0 lost=$lost]"; }
		eval "f=\$if$n"
		x=$(check_graph $tmp/$c "$f" $t0) || bad="$bad $c-graph"
		res="$res $c($f):[$x]"
		if [ $n -eq $((ninst - 1)) ] && [ $deferred -eq 1 ]; then
			x=$(check_deferred $tmp/$c $t0) || bad="$bad $c-deferred"
			res="$res $c:[$x]"
		fi
		echo nop >$d/current_tracer
		rmdir $d || bad="$bad rmdir-$c"
		n=$((n + 1))
	done
	# recursed_functions: "parent:<tab>function<tab>count=N context=..."
	# lines only
	if [ -r $recursed ]; then
		nrec=$(grep -c . $recursed)
		tab=$(printf '\t')
		grep -v "^[^$tab]*:$tab[^$tab]*${tab}count=[0-9]* context=[a-z,]*\$" \
			$recursed | head -3 >$tmp/rec-bad
		[ -s $tmp/rec-bad ] && bad="$bad recursed-format"
		res="$res recursed=$nrec"
	fi

	# Back to a plain state for the next round
	echo nop >$t/current_tracer
	echo 0 >$t/events/enable
	[ $probes -eq 1 ] && echo >$t/kprobe_events
	echo 0 >$t/options/userstacktrace
	[ $deferred -eq 1 ] && echo 0 >$t/options/userstacktrace_deferred
	echo 0 >$t/options/funcgraph-proc
	echo 0 >$t/options/funcgraph-tail
	echo 0 >$t/options/funcgraph-abstime
	echo >$t/set_ftrace_filter
	echo >$t/stack_trace_filter 2>/dev/null
	echo >$t/trace
	echo local >$t/trace_clock

	reports=$(($(dmesg | grep -cE "$pat") - reports_before))
	[ $reports -eq 0 ] || bad="$bad kernel-reports=$reports"
	echo "combo round $i: tracer=$tracer filter=\"$topf\" instances=$ninst" \
		"ustack=$ustk probes=$probes systems=$(echo $sys | tr ' ' ,)"
	echo "combo round $i:$res"
	if [ -n "$bad" ]; then
		fails=$((fails + 1))
		echo "combo round $i: FAIL:$bad"
		for c in top $insts; do
			check_graph $tmp/$c "" 0 2>/dev/null | grep -v '^graph' | head -5
			check_deferred $tmp/$c 0 2>/dev/null | grep -v '^deferred' | head -5
		done
		cat $tmp/rec-bad 2>/dev/null
	fi
	i=$((i + 1))
done
ntr=$(echo $covered_tr | tr ' ' '\n' | sort -u | wc -l)
ns=$(echo $covered_sys | tr ' ' '\n' | sort -u | wc -l)
echo "combo: covered $ntr of $ntracers tracers ($(echo $covered_tr | tr ' ' '\n' | sort -u | tr '\n' ' '))," \
	"$ns of $nsys event systems"
ftn-figure combo "seed=$seed rounds=$rounds failed=$fails tracers=$ntr/$ntracers systems=$ns/$nsys"
[ $fails -eq 0 ]
