# tracefs-fuzz.sh: structured random writes to the tracefs files the series
# adds or changes and the stock ones around them, alone and then from three
# writers while an instance's tracer switches and a workload forks and
# execs (/usr/bin/tracefs-fuzz, guest/src/tracefs-fuzz.c). FUZZ_WRITES
# (kernel command line; default 10000, 0: not run) sets the length,
# FUZZ_SEED (default: the time, printed) repeats a run. Fails when a
# refused write changed its file or a kernel report appeared meanwhile;
# any report also fails the boot through the console scan.
writes=${FUZZ_WRITES:-10000}
[ "$writes" -gt 0 ] || exit 77
seed=${FUZZ_SEED:-$(date +%s)}
echo "tracefs-fuzz: seed $seed, $writes writes (FUZZ_SEED=$seed repeats it)"
pat='WARNING:|BUG:|Oops|cut here|ftrace bug|possible circular|suspicious RCU'
before=$(dmesg | grep -cE "$pat")
out=$(tracefs-fuzz "$seed" "$writes" 3)
rc=$?
echo "$out"
splats=$(($(dmesg | grep -cE "$pat") - before))
fig=$(echo "$out" | sed -n 's/^fuzz //p' | tail -1)
ftn-figure tracefs-fuzz "$fig splats=$splats"
[ $rc -eq 0 ] && [ $splats -eq 0 ]
