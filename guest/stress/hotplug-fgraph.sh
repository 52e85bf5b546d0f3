# hotplug-fgraph.sh: take every CPU but the boot CPU offline and back online,
# ROUNDS times (default 3), while function_graph traces every function at
# the top level and a busy loop runs. Fails when a CPU refuses to go down or
# come back, or the trace has no entries; splats fail the boot through the
# console scan. Reports the transitions done.
t=/sys/kernel/tracing
rounds=${ROUNDS:-3}
echo function_graph >$t/current_tracer || exit 1
(while :; do :; done) &
load=$!
done_=0 bad=0
for r in $(seq "$rounds"); do
	for c in /sys/devices/system/cpu/cpu[1-9]*; do
		[ -w "$c/online" ] || continue
		if echo 0 >"$c/online" && echo 1 >"$c/online"; then
			done_=$((done_ + 1))
		else
			echo "$(basename "$c") would not go down and up"
			bad=$((bad + 1))
		fi
	done
done
kill $load
echo 0 >$t/tracing_on
entries=$(head -n 2000 $t/trace | grep -c '[|]')
echo nop >$t/current_tracer
echo 1 >$t/tracing_on
ftn-figure hotplug-fgraph "rounds=$rounds transitions=$done_ failed=$bad trace_lines=$entries"
[ $bad -eq 0 ] && [ "$done_" -gt 0 ] && [ "$entries" -gt 0 ]
