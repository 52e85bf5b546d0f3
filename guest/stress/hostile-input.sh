# hostile-input.sh: malformed input to everything the series adds or
# changes that takes input: recursed_functions (writes other than the
# truncating open are accepted and ignored, as in stock), the
# trace_recursion_test "trigger" parameter (only its five modes are
# accepted) and the torture module's parameters (nonsense must make the
# load fail). Each input must leave recursed_functions unchanged; splats
# fail the boot through the console scan. Reports the inputs tried.
t=/sys/kernel/tracing
f=$t/recursed_functions
trig=/sys/module/trace_recursion_test/parameters/trigger
modprobe trace_recursion_test || exit 1
: >$f
echo task >$trig || exit 1
before=$(cat $f)
[ -n "$before" ] || { echo "no record to compare with"; exit 1; }
huge=$(head -c 100000 /dev/zero | tr '\000' a)
bin=$(printf '\001\377\033[2J\177')
tried=0 bad=0
check() { # what
	tried=$((tried + 1))
	[ "$(cat $f)" = "$before" ] && return
	echo "$1 changed recursed_functions"
	bad=$((bad + 1))
}
for v in "" 0 -1 18446744073709551616 "$huge" "$bin" task; do
	printf '%s' "$v" >>$f 2>/dev/null
	check "appending '$(printf '%.20s' "$v")' to recursed_functions"
done
for v in tas taskx TASK -1 0 "$huge" "$bin" graph "irq irq" "task;irq"; do
	if printf '%s' "$v" >$trig 2>/dev/null; then
		echo "trigger accepted '$(printf '%.20s' "$v")'"
		bad=$((bad + 1))
	fi
	check "trigger '$(printf '%.20s' "$v")'"
done
rmmod trace_recursion_test
for p in rounds=-1 rounds=0 rounds=2 passes=0 rounds=x \
	path=/nonexistent "path=$t/trace_marker_raw"; do
	if modprobe trace_recursion_torture "$p" 2>/dev/null; then
		echo "torture loaded with $p"
		rmmod trace_recursion_torture
		bad=$((bad + 1))
	fi
	tried=$((tried + 1))
done
ftn-figure hostile-input "tried=$tried accepted_or_changed=$bad"
[ $bad -eq 0 ]
