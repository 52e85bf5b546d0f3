# demo.sh: the make run plan: show what the series does, briefly.
t=/sys/kernel/tracing
echo "== $(uname -r) on $(uname -m), $(nproc) CPUs"
echo "== available_tracers"
cat $t/available_tracers
echo "== recursed_functions at boot"
if [ -s $t/recursed_functions ]; then
	cat $t/recursed_functions
else
	echo "(empty: nothing has recursed)"
fi
echo "== recursed_functions after recursing on purpose (trace_recursion_test.ko)"
: >$t/recursed_functions
modprobe trace_recursion_test
for m in task softirq irq task graph-return; do
	echo "   trigger: $m"
	echo $m >/sys/module/trace_recursion_test/parameters/trigger
done
cat $t/recursed_functions
rmmod trace_recursion_test
echo "== recursed_functions torture (4 CPUs: make test; here $(nproc))"
if modprobe trace_recursion_torture rounds=60; then r=passed; else r=FAILED; fi
dmesg | sed -n 's/.*trace_recursion_torture: /   /p' | tail -n 5
echo "   torture $r"
case $(uname -m) in
ppc64*)
	echo "== kprobe events on the kprobe trap path are refused (patches 1-2)"
	for f in check_return_regs_valid do_program_check; do
		if echo "p:demo $f+8" >>$t/kprobe_events 2>/dev/null; then
			echo "$f+8: ACCEPTED (the stock bug)"
			echo "-:demo" >>$t/kprobe_events
		else
			echo "$f+8: refused"
		fi
	done
	dmesg | grep -E 'Could not (probe|insert)' | tail -2 | sed 's/^\[[^]]*\] /  dmesg: /'
	;;
esac
