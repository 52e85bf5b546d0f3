# bench.sh: the make bench plan. Times a getppid() loop (getppid-loop) with
# K function-graph users from /extra/fgraph-bench.ko filtered to the
# syscall (the fgraph core), then with function_graph on every function in
# 1, 2 and 4 tracefs instances (what a user sees). One line per case on the
# results port, values in ns per getppid() over RUNS runs, sorted:
#   FTN-BENCH core K v1 v2 ... | refused      FTN-BENCH graph N v1 ...
#   FTN-BENCH coretime 1 v1 ...   (one user that asks for the times)
#   FTN-BENCH check core K calls=C entries=E returns=R   (E, R >= K * C)
# and the user stack figures (below).
# scripts/bench-report.sh turns them into build/bench/results.md.
t=/sys/kernel/tracing
calls=20000 runs=5 gcalls=2000
bench() { # kind k calls: one FTN-BENCH line
	v=$(getppid-loop "$3" $runs | sort -n | tr '\n' ' ')
	msg "FTN-BENCH $1 $2 $v"
}
msg() { echo "$*"; echo "$*" >&3; }

# fgraph core. Stock 6.1's single user follows the global filter; the
# others set their own (the module's filter parameter), same function.
echo "*sys_getppid" >$t/set_ftrace_filter || exit 1
bench core 0 $calls
for k in 1 2 4 8 16; do
	if ! insmod /extra/fgraph-bench.ko users=$k 2>/dev/null; then
		msg "FTN-BENCH core $k refused"
		continue
	fi
	bench core $k $calls
	p=/sys/module/fgraph_bench/parameters
	msg "FTN-BENCH check core $k calls=$((calls * runs)) entries=$(cat $p/entries) returns=$(cat $p/returns)"
	rmmod fgraph_bench || exit 1
done
# One user that asks for the entry and return times, as the tracers do
# (the same as "core 1" on stock kernels, which always read them)
if insmod /extra/fgraph-bench.ko users=1 times=1 2>/dev/null; then
	bench coretime 1 $calls
	p=/sys/module/fgraph_bench/parameters
	msg "FTN-BENCH check core 1 calls=$((calls * runs)) entries=$(cat $p/entries) returns=$(cat $p/returns)"
	rmmod fgraph_bench || exit 1
else
	msg "FTN-BENCH coretime 1 refused"
fi
echo >$t/set_ftrace_filter

# function_graph on every function, top level plus instances; fixed
# buffers, so every kernel records into the same amount of memory.
bench graph 0 $gcalls
dirs=$t
for n in 1 2 4; do
	while [ "$(echo $dirs | wc -w)" -lt $n ]; do
		d=$t/instances/bench$(echo $dirs | wc -w)
		mkdir $d || break
		dirs="$dirs $d"
	done
	ok=1
	for d in $dirs; do
		echo 1024 >$d/buffer_size_kb
		[ "$(cat $d/current_tracer)" = function_graph ] ||
			echo function_graph >$d/current_tracer 2>/dev/null || ok=""
	done
	[ "$(echo $dirs | wc -w)" = $n ] || ok=""
	if [ -n "$ok" ]; then
		bench graph $n $gcalls
	else
		msg "FTN-BENCH graph $n refused"
	fi
done
for d in $dirs; do
	echo nop >$d/current_tracer
	[ $d = $t ] || rmdir $d
done

# User stacks, a getppid() event per call made 32 frames deep
# (ustack-bench): the event alone, with the synchronous userstacktrace,
# with userstacktrace_deferred where the kernel has it. Then with the
# callers' stack pages not faulted in ("cold", 200 calls): per kind,
#   FTN-BENCH ucold KIND stacks=S full=F frames=N
# S stacks of ustack-bench, F of them complete (sync: its 8-entry
# maximum; deferred: all 32 frames and the 2 below them), N frames in all.
depth=32 ucalls=2000
echo 4096 >$t/buffer_size_kb
echo 1 >$t/events/syscalls/sys_enter_getppid/enable || exit 1
ustack() { # kind [option]
	if [ -n "$2" ] && ! echo 1 >$t/options/$2 2>/dev/null; then
		msg "FTN-BENCH ustack $1 refused"
		return
	fi
	v=$(ustack-bench $depth $ucalls $runs | sort -n | tr '\n' ' ')
	[ -z "$2" ] || echo 0 >$t/options/$2
	msg "FTN-BENCH ustack $1 $v"
}
ucold() { # kind option full
	echo >$t/trace
	if ! echo 1 >$t/options/$2 2>/dev/null; then
		msg "FTN-BENCH ucold $1 refused"
		return
	fi
	ustack-bench $depth 200 1 cold >/dev/null
	echo 0 >$t/options/$2
	v=$(awk -v full="$3" '
		function done() { if (on) { s++; f += n; if (n >= full) c++ } on = 0 }
		/^ =>/ { n++; next }
		{ done() }
		$1 ~ /^ustack-bench/ && /<user stack (trace|unwind)>/ { on = 1; n = 0 }
		END { done(); printf "stacks=%d full=%d frames=%d", s, c, f }' $t/trace)
	msg "FTN-BENCH ucold $1 $v"
}
ustack event
ustack sync userstacktrace
ustack deferred userstacktrace_deferred
ucold sync userstacktrace 8
ucold deferred userstacktrace_deferred $((depth + 2))
echo 0 >$t/events/syscalls/sys_enter_getppid/enable
echo >$t/trace
# The request path (the series' test module), ps per request, in task
# context and from a self-NMI: an entry's first request, then the fast
# path (callback already pending)
#   FTN-BENCH ureq task|nmi pending=P first=P | refused
if modprobe test_unwind_deferred 2>/dev/null; then
	d=/sys/kernel/debug/unwind_deferred_test
	ureq() { # kind command stats-prefix
		if echo "$2 10000" >$d/ctl 2>/dev/null; then
			msg "FTN-BENCH ureq $1 $(tr ' ' '\n' <$d/stats | sed -n \
				"s/^bench_$3first_ps=/first=/p; s/^bench_$3ps=/pending=/p" |
				tr '\n' ' ')"
		else
			msg "FTN-BENCH ureq $1 refused"
		fi
	}
	ureq task bench ""
	ureq nmi benchnmi nmi_
	rmmod test_unwind_deferred
fi
exit 0
