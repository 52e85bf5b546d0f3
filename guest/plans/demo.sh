# demo.sh: the make run plan: show what the series adds, briefly.
t=/sys/kernel/tracing
echo "== $(uname -r) on $(uname -m)"
echo "== available_tracers"
cat $t/available_tracers
echo "== recursed_functions"
cat $t/recursed_functions
