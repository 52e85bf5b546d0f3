#!/bin/sh
# ustack-ppc.sh: the powerpc back-chain walk of deferred user stacks,
# frame by frame, where the innermost function's return address may be
# only in the link register, stale there, in r0, or on the stack:
# guest/src/ustack-ppc.c asks from a leaf without a frame, a function
# with a frame after it called a leaf, a prologue before its stdu, an
# epilogue after its pop, a leaf with a frame that never saves LR, a
# leaf called by a signal handler that interrupted a busy loop, a leaf
# built with a frame pointer, glibc's sc wrapper shape, libc's getppid()
# (scv on POWER10) called directly and through a pointer, and page
# faults in two epilogues with the return address in r0 alone, a leaf
# with an SMT priority hint (or 1,1,1, no pop) after its sc, an epilogue
# 50 instructions long after its pop, and a pop followed by a jump to an
# out-of-line register restore (gcc -Os), and a leaf called by a
# signal handler that interrupted a frameless scv wrapper after its scv,
# before it restored LR (scvintr: LR is scv's own there). Each
# request's deferred stack (userstacktrace_deferred in an instance, on
# syscalls:sys_enter_getppid or, for the faults, kmem:mm_page_alloc) is
# mapped to the program's functions by the ranges it prints; every stack
# must read, up to main:
#   MODE mid outer run main
#   (signal: leaf handler - spin mid outer run main; scvintr: leaf
#   handler - scvintr mid outer run main; scvdirect, scvptr:
#   - mid outer run main; "-" is an address outside the program's test
#   functions: the vdso's sigreturn trampoline, libc's getppid)
# with no frame shown twice and none lost. The signal rounds whose
# SIGALRM arrived before spin() (scvintr()) was entered must each read as a stack
# of where it landed (mid, outer, run or libc's setitimer) and be a
# minority; the fault modes check the stacks of faults in their own
# function (the program's other page allocations are not counted).
# Exit 77 where the kernel has no deferred user stacks or is not ppc64.
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
for e in syscalls/sys_enter_getppid kmem/mm_page_alloc; do
	echo 'comm == "ustack-ppc"' >$d/events/$e/filter ||
		{ cleanup; exit 1; }
done
bad=0
fig=""
modes="leaf frame prologue epilogue leafframe signal fpleaf glibcsc"
modes="$modes scvdirect scvptr popfault tailfault spinhint longepi ostail"
modes="$modes scvintr"
for m in $modes; do
	e=syscalls/sys_enter_getppid
	case $m in popfault | tailfault) e=kmem/mm_page_alloc ;; esac
	echo >$d/trace
	echo 1 >$d/events/$e/enable || { bad=1; continue; }
	ustack-ppc $m $rounds >$tmp/ranges-$m || { echo "$m: ustack-ppc failed"; bad=1; }
	echo 0 >$d/events/$e/enable
	cat $d/trace >$tmp/trace-$m
	want="$m mid outer run main"
	case $m in
	signal) want="leaf handler - spin mid outer run main" ;;
	scvintr) want="leaf handler - scvintr mid outer run main" ;;
	scv*) want="- mid outer run main" ;;
	esac
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
	# the faults: only those in the mode's own function; scvintr: the
	# handler's, not those of scvintr()'s own getppid() (which read
	# "scvintr mid outer run main", the scvdirect case)
	case $m in
	popfault | tailfault)
		grep "^$m " $tmp/stacks-$m >$tmp/own-$m
		mv $tmp/own-$m $tmp/stacks-$m ;;
	scvintr)
		grep -vx "scvintr mid outer run main" $tmp/stacks-$m >$tmp/own-$m
		mv $tmp/own-$m $tmp/stacks-$m ;;
	esac
	total=$(grep -c . $tmp/stacks-$m)
	good=$(grep -cx -e "$want" $tmp/stacks-$m)
	# (signal, scvintr: a SIGALRM that came before spin() or scvintr()
	# was entered: in mid(), outer(), run(), or libc's setitimer() called
	# by run())
	other=0
	case $m in signal | scvintr) true ;; *) false ;; esac &&
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
		grep -vx -e "$want" $tmp/stacks-$m | sort | uniq -c | head -5
		echo "$m: the ranges, and the first stack not as wanted:"
		cat $tmp/ranges-$m
		n=$(grep -vnx -e "$want" $tmp/stacks-$m | head -1 | cut -d: -f1)
		awk -v n="$n" '/<user stack unwind>/ { k++ } k == n && (/<user stack unwind>/ || /^ => /)' $tmp/trace-$m
	fi
done
cleanup
ftn-figure ustack-ppc "${fig# }"
exit $bad
