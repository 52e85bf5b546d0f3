# tracefs-fuzz.sh: structured random writes to the tracefs files the series
# adds or changes and the stock ones around them, alone and then from three
# writers while an instance's tracer switches and a workload forks and
# execs (/usr/bin/tracefs-fuzz, guest/src/tracefs-fuzz.c). FUZZ_WRITES
# (kernel command line; default 10000, 0: not run) sets the length,
# FUZZ_SEED (default: the time, printed; on the kernel command line, e.g.
# APPEND=FUZZ_SEED=N for scripts/run.sh) repeats the run alone; the
# concurrent part depends on scheduling. Fails when a
# refused write changed its file or a kernel report appeared meanwhile;
# any report also fails the boot through the console scan.
writes=${FUZZ_WRITES:-10000}
[ "$writes" -gt 0 ] || exit 77
seed=${FUZZ_SEED:-$(date +%s)}
echo "tracefs-fuzz: seed $seed, $writes writes (FUZZ_SEED=$seed repeats it)"
. /plans/reports.sh
before=$(ftn_reports)
out=$(tracefs-fuzz "$seed" "$writes" 3)
rc=$?
printf '%s\n' "$out"
splats=$(($(ftn_reports) - before))
fig=$(printf '%s\n' "$out" | sed -n 's/^fuzz //p' | sed -n '$p')
ftn-figure tracefs-fuzz "$fig splats=$splats"
[ $rc -eq 0 ] && [ $splats -eq 0 ]
