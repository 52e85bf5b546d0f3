# recursion-torture.sh: load trace_recursion_torture.ko, which races one
# writer per CPU through the recursed_functions recorder (directly, and
# through the function tracer's recursion protection from task, softirq,
# hardirq and, on x86, NMI context) against reads and clears of the file,
# and checks the file and the recorder's slots after every round. Passes
# when the module loads (it refuses to on any failed check) with at least
# 4 CPUs, and reports its figures line.
n=$(grep -c '^processor' /proc/cpuinfo)
[ "$n" -ge 4 ] || { echo "torture needs 4 CPUs, this guest has $n"; exit 1; }
modprobe trace_recursion_torture
rc=$?
dmesg | grep 'trace_recursion_torture: round ' | head -n 20
line=$(dmesg | sed -n 's/.*trace_recursion_torture: \(rounds=.*\)/\1/p' | tail -n 1)
[ -n "$line" ] || { echo "no figures from the torture module"; exit 1; }
ftn-figure recursion-torture "$line"
case "$rc:$line" in
0:*" failures=0") exit 0 ;;
*) exit 1 ;;
esac
