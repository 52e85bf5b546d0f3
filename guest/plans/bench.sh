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

. /plans/bench-ustack.sh
exit 0
