# unwind-deferred.sh: deferred user stacks from task, softirq and hardirq
# context under load. With options/userstacktrace_deferred on and the
# getppid and exit_group syscall (task), timer (softirq) and timer
# interrupt (hardirq) events, and page allocations under zone->lock
# (kmem:mm_page_alloc_zone_locked), one ustack-deep per CPU sits 32
# frames deep while shells fork and exit, and one sits 200 frames deep.
# Checks: every
# request cookie has exactly one stack, also for tasks that exit with
# their request pending (walked before the mm goes: not empty);
# requests came from all three contexts and from inside the page
# allocator; most stacks of the
# 32-deep tasks hold all their frames (ip, work, 32 x deep, main); the
# 200-deep task's stacks stop at UNWIND_MAX_ENTRIES (128). Exit 77
# (unsupported) where the kernel lacks the option (not x86_64).
t=/sys/kernel/tracing
o=$t/options/userstacktrace_deferred
[ -e $o ] || { echo "no $o"; exit 77; }
max=128
tmp=/tmp/unwind-deferred
mkdir -p $tmp
echo 0 >$t/events/enable
echo 4096 >$t/buffer_size_kb
echo >$t/trace
echo 1 >$o || exit 1
for e in syscalls/sys_enter_getppid syscalls/sys_enter_exit_group \
	timer/timer_expire_entry; do
	echo 1 >$t/events/$e/enable || exit 1
done
# Requests from inside the page allocator, under zone->lock: the request
# path must not allocate (the debug kernel's lockdep and KASAN watch)
echo 1 >$t/events/kmem/mm_page_alloc_zone_locked/enable || exit 1
# The timer interrupt: the x86 vector event, the powerpc decrementer's,
# else an hrtimer tick (none where the tick is not high-resolution)
if [ -d $t/events/irq_vectors/local_timer_entry ]; then
	echo 1 >$t/events/irq_vectors/local_timer_entry/enable
elif [ -d $t/events/powerpc/timer_interrupt_entry ]; then
	echo 1 >$t/events/powerpc/timer_interrupt_entry/enable
else
	echo 1 >$t/events/timer/hrtimer_expire_entry/enable
fi || exit 1
pids=""
for c in $(seq "$(nproc)"); do
	ustack-deep 32 3000 &
	pids="$pids $!"
done
ustack-deep 200 300 &
pids="$pids $!"
for i in $(seq 100); do
	/bin/true
done
wait $pids
echo 0 >$t/events/enable
echo 0 >$o
# Lines the buffer dropped would read as requests without stacks
lost=$(cat $t/per_cpu/cpu*/stats | awk '/^overrun:/ { n += $2 } END { print n + 0 }')
if [ "$lost" -gt 0 ]; then
	echo "the trace buffer overran ($lost events lost): the counts below cannot be checked; raise buffer_size_kb"
	exit 1
fi
cat $t/trace >$tmp/trace
echo >$t/trace

# One line per request and per stack: "req COOKIE CTX COMM EXIT" and
# "stack COOKIE COMM FRAMES", CTX from the flags' third column, EXIT
# "exit" for the request of an exit_group() event (the task exits with it
# pending), else "-".
awk '/sys_exit_group\(/ { ex[$1] = 1 }
	/<user stack deferred> cookie=/ {
		c = substr($NF, 8); x = substr($3, 3, 1)
		ctx = x == "h" || x == "H" ? "hardirq" : x == "s" ? "softirq" : "task"
		comm = $1; sub(/-[0-9]+$/, "", comm)
		e = ($1 in ex) ? "exit" : "-"; delete ex[$1]
		print "req", c, ctx, comm, e; next }
	/<user stack unwind> cookie=/ {
		if (s != "") print s, n
		c = substr($NF, 8); comm = $1; sub(/-[0-9]+$/, "", comm)
		s = "stack " c " " comm; n = 0; next }
	/^ => / { n++; next }
	{ if (s != "") print s, n; s = "" }
	END { if (s != "") print s, n }' $tmp/trace >$tmp/lines
# (stack lines: "stack COOKIE COMM FRAMES")
reqs=$(grep -c '^req' $tmp/lines)
stacks=$(grep -c '^stack' $tmp/lines)
bad=0
for ctx in task softirq hardirq; do
	n=$(grep -c "^req [0-9a-f]* $ctx " $tmp/lines)
	eval "n_$ctx=$n"
	[ "$n" -gt 0 ] || { echo "no request from $ctx context"; bad=1; }
done
awk '$1 == "req" { r[$2] = 1 } $1 == "stack" { s[$2]++ }
	END { for (c in r) if (s[c] != 1) { print "cookie " c ": " s[c] + 0 " stacks"; b = 1 }
		for (c in s) if (!(c in r)) { print "stack " c " without request"; b = 1 }
		exit b }' $tmp/lines || bad=1
# A task that exits with its request pending gets its call before its mm
# goes: the exiting task's stack, at least its ip
set -- $(awk '$1 == "req" && $5 == "exit" { e[$2] = 1 } $1 == "stack" { f[$2] = $4 }
	END { n = 0; b = 0; for (c in e) { n++; if (f[c] < 1) b++ } print n, b }' $tmp/lines)
exits=$1
[ "$1" -gt 0 ] && [ "$2" = 0 ] ||
	{ echo "exit_group requests: $1, with an empty stack: $2"; bad=1; }
# 32 x deep, work, the ip and main: at least 35 frames
deep=$(awk '$1 == "stack" && $3 == "ustack-deep" && $4 < 100' $tmp/lines | wc -l)
full=$(awk '$1 == "stack" && $3 == "ustack-deep" && $4 >= 35 && $4 < 100' $tmp/lines | wc -l)
capped=$(awk -v m=$max '$1 == "stack" && $3 == "ustack-deep" && $4 >= 100 {
	print ($4 == m ? "ok" : "over") }' $tmp/lines | sort | uniq -c | tr '\n' ' ')
maxf=$(awk '$1 == "stack" { if ($4 > m) m = $4 } END { print m + 0 }' $tmp/lines)
[ "$deep" -gt 0 ] && [ $((full * 10)) -ge $((deep * 8)) ] ||
	{ echo "32-deep stacks: $full of $deep complete"; bad=1; }
[ "$maxf" -eq $max ] || { echo "longest stack $maxf frames, want $max"; bad=1; }
# Requests of page allocations: the cookie line right after the event
n_alloc=$(awk '/<user stack deferred> cookie=/ { if (p ~ /mm_page_alloc_zone_locked:/) n++ }
	{ p = $0 } END { print n + 0 }' $tmp/trace)
[ "$n_alloc" -gt 0 ] || { echo "no request from inside the page allocator"; bad=1; }
ftn-figure unwind-deferred "requests=$reqs task=$n_task softirq=$n_softirq hardirq=$n_hardirq alloc=$n_alloc exits=$exits stacks=$stacks deep_complete=$full/$deep max_frames=$maxf capped=[$capped]"
[ $bad -eq 0 ]
