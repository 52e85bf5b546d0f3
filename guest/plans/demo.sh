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
o=$t/options/userstacktrace_deferred
if [ -e $o ]; then
	echo "== a deferred user stack: ustack-deep 4 deep, its getppid() event and the stack with the same cookie (patches 33-38)"
	echo >$t/trace
	echo 1 >$o
	echo 1 >$t/events/syscalls/sys_enter_getppid/enable
	ustack-deep 4 1
	echo 0 >$t/events/syscalls/sys_enter_getppid/enable
	echo 0 >$o
	grep -v '^#' $t/trace | grep -A 10 'sys_getppid' | head -n 11
	echo >$t/trace
fi
if command -v perf >/dev/null; then
	echo "== perf record --call-graph fp,defer: each sample's user frames come at the return to user space and perf script joins them (patches 59-61)"
	cd /tmp || exit 1
	perf record -q -o /tmp/demo.data -e cpu-clock -c 500000 \
		--call-graph fp,defer -- ustack-deep 4 300 >/dev/null 2>&1
	perf script -i /tmp/demo.data -F comm,tid,ip,sym,dso 2>/dev/null |
		awk '{ buf = buf $0 "\n" } $2 == "work" { hit = 1 }
			!NF { if (hit) { printf "%s", buf; exit } buf = "" }'
	echo "   the same samples with --no-merge-callchains: one record per cookie"
	perf script -i /tmp/demo.data --no-merge-callchains 2>/dev/null |
		grep -m 2 CALLCHAIN_DEFERRED
	rm -f /tmp/demo.data
fi
echo "== function_graph in two instances with different filters (patches 17-26)"
for i in reads writes; do
	mkdir $t/instances/$i
done
echo vfs_read >$t/instances/reads/set_ftrace_filter
echo vfs_write >$t/instances/writes/set_ftrace_filter
echo ksys_read >>$t/instances/reads/set_ftrace_filter
echo ksys_write >>$t/instances/writes/set_ftrace_filter
for i in reads writes; do
	echo function_graph >$t/instances/$i/current_tracer
done
echo 'vfs_*' >$t/set_ftrace_filter
echo 1 >$t/function_profile_enabled 2>/dev/null &&
	echo "   and the function profiler alongside, on the top level's vfs_*"
for n in 1 2 3; do
	read -r l </proc/version
	echo "$l" >/dev/null
done
for i in reads writes; do
	echo 0 >$t/instances/$i/tracing_on
	echo "-- instances/$i (set_ftrace_filter: $(echo $(cat $t/instances/$i/set_ftrace_filter)))"
	grep -v '^#' $t/instances/$i/trace | grep -v '^ *$' | head -n 8
done
if [ -f $t/function_profile_enabled ]; then
	echo 0 >$t/function_profile_enabled
	echo "-- profiler, CPU 0"
	head -n 7 $t/trace_stat/function0
fi
echo >$t/set_ftrace_filter
for i in reads writes; do
	echo nop >$t/instances/$i/current_tracer
	rmdir $t/instances/$i
done
