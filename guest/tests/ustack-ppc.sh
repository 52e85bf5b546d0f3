#!/bin/sh
# ustack-ppc.sh: the powerpc back-chain walk of deferred user stacks,
# frame by frame, where the innermost function's return address may be
# only in the link register, stale there, or on the stack: guest/src/
# ustack-ppc.c makes getppid() calls from a leaf without a frame, a
# function with a frame after it called a leaf, a prologue before its
# stdu, an epilogue after its pop, a leaf with a frame that never saves
# LR, and a leaf called by a signal handler that interrupted a busy loop.
# Each call's deferred stack (userstacktrace_deferred on
# syscalls:sys_enter_getppid, in an instance) is mapped to the program's
# functions by the ranges it prints; every stack must read, up to main:
#   MODE mid outer run main
#   (signal: leaf handler - spin mid outer run main; "-" is the vdso's
#   sigreturn trampoline, outside the program)
# with no frame shown twice and none lost. The signal rounds whose
# SIGALRM arrived outside spin() (before it was entered) are counted
# apart, must each read as a stack of where it landed (mid, outer, run or
# libc's setitimer), and must be a minority. Exit 77 where the kernel has no deferred
# user stacks or is not ppc64.
t=/sys/kernel/tracing
case $(uname -m) in
ppc64*) ;;
*) exit 77 ;;
esac
[ -e $t/options/userstacktrace_deferred ] || exit 77
d=$t/instances/ustack-ppc
tmp=/tmp/ustack-ppc
rounds=20
mkdir -p $tmp
rmdir $d 2>/dev/null
mkdir $d || exit 1
cleanup() {
	echo 0 >$d/events/enable
	echo 0 >$d/options/userstacktrace_deferred
	rmdir $d
}
echo 1 >$d/options/userstacktrace_deferred || { cleanup; exit 1; }
e=$d/events/syscalls/sys_enter_getppid
echo 'comm == "ustack-ppc"' >$e/filter && echo 1 >$e/enable ||
	{ cleanup; exit 1; }
bad=0
fig=""
for m in leaf frame prologue epilogue leafframe signal; do
	echo >$d/trace
	ustack-ppc $m $rounds >$tmp/ranges-$m || { echo "$m: ustack-ppc failed"; bad=1; continue; }
	cat $d/trace >$tmp/trace-$m
	want="$m mid outer run main"
	[ $m = signal ] && want="leaf handler - spin mid outer run main"
	# Each stack as the names of its frames up to main; the addresses
	# are 16 hex digits on both sides, compared as strings
	awk 'FILENAME == ARGV[1] { if ($1 == "range") { n++; name[n] = $2
			lo[n] = $3; hi[n] = $4 }
		next }
	function flush() { if (s != "") print s; s = "" }
	/<user stack unwind> cookie=/ { flush(); s = "stack:"; done = 0; next }
	/^ => / && s != "" { if (done) next
		a = $0; sub(/.*</, "", a); sub(/>.*/, "", a)
		f = "-"
		for (i = 1; i <= n; i++) if (a >= lo[i] && a < hi[i]) f = name[i]
		s = s " " f; if (f == "main") done = 1; next }
	{ flush() }
	END { flush() }' $tmp/ranges-$m $tmp/trace-$m | sed 's/^stack: //' >$tmp/stacks-$m
	total=$(grep -c . $tmp/stacks-$m)
	good=$(grep -cx "$want" $tmp/stacks-$m)
	# (signal: a SIGALRM that came before spin() was entered: in mid(),
	# outer(), run(), or libc's setitimer() called by run())
	other=0
	[ $m = signal ] &&
		other=$(grep -c -x -e 'leaf handler - mid outer run main' \
			-e 'leaf handler - outer run main' \
			-e 'leaf handler - run main' \
			-e 'leaf handler - - run main' $tmp/stacks-$m)
	echo "$m: $good of $total stacks read \"$want\", $other signals outside spin"
	fig="$fig $m=$good/$total"
	if [ "$total" -lt $rounds ]; then
		echo "$m: $total stacks for $rounds calls"; bad=1
	fi
	[ $((good + other)) -eq "$total" ] && [ $((good * 2)) -gt "$total" ] || bad=1
	if [ "$good" -ne "$total" ]; then
		grep -vx "$want" $tmp/stacks-$m | sort | uniq -c | head -5
		echo "$m: the ranges, and the first stack not as wanted:"
		cat $tmp/ranges-$m
		n=$(grep -vnx "$want" $tmp/stacks-$m | head -1 | cut -d: -f1)
		awk -v n="$n" '/<user stack unwind>/ { k++ } k == n && (/<user stack unwind>/ || /^ => /)' $tmp/trace-$m
	fi
done
cleanup
ftn-figure ustack-ppc "${fig# }"
exit $bad
