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
# The kernel reports of scripts/scan-console.sh, counted as lines
pat='Kernel panic|BUG:|kernel BUG at|WARNING:|Oops|Unable to handle kernel'
pat="$pat|general protection fault|ftrace bug|ftrace faulted|possible circular"
pat="$pat|possible recursive|inconsistent lock state|suspicious RCU usage"
pat="$pat|KASAN:|UBSAN:|detected stall|soft lockup|blocked for more than"
pat="$pat|list_add corruption|list_del corruption|refcount_t:|kfence:"
before=$(dmesg | grep -cE "$pat")
out=$(tracefs-fuzz "$seed" "$writes" 3)
rc=$?
printf '%s\n' "$out"
splats=$(($(dmesg | grep -cE "$pat") - before))
fig=$(printf '%s\n' "$out" | sed -n 's/^fuzz //p' | sed -n '$p')
ftn-figure tracefs-fuzz "$fig splats=$splats"
[ $rc -eq 0 ] && [ $splats -eq 0 ]
