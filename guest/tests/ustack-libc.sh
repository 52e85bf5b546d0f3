#!/bin/sh
# ustack-libc.sh: deferred user stacks of Debian binaries built without
# frame pointers: Debian's dash (a PIE) in Debian's libc. dash's read
# builtin, called from shell functions nested N deep (N = 0, then 3),
# blocks in libc's read() on a fifo; userstacktrace_deferred on
# syscalls:sys_enter_read, in an instance filtered on the program's name,
# records a stack per read(2), and ustack-syms (guest/src) maps each
# frame to its file, its ELF symbol and the instruction before it.
# ppc64le (back chain): every stack must start in libc's read, go on in
# dash (read's caller, through its PLT stub), end in libc's
# __libc_start_main, have every return address right after a call
# instruction and none unmapped, every edge ustack-syms can check right
# (a direct call's frame above must lie in the called function: no frame
# doubled or lost there) and at least 5 of them, and N = 3 must add three
# times the same number of dash frames to N = 0. A frame lost behind a
# call through a pointer (bctrl) is not seen.
# x86_64 (frame pointers, which this dash and libc do not keep): the same
# figures, with no claim on depth; only that each read has its stack.
# Figure: ustack-libc arch=A depth0=F depth3=F dash0=D dash3=D notcall=C
t=/sys/kernel/tracing
[ -e $t/options/userstacktrace_deferred ] || exit 77
tmp=/tmp/ustack-libc
prog=$tmp/ustack-dash
d=$t/instances/ustack-libc
rm -rf $tmp
mkdir -p $tmp
cp /bin/dash $prog || exit 1
rmdir $d 2>/dev/null
mkdir $d || exit 1
e=$d/events/syscalls/sys_enter_read
cleanup() {
	echo 0 >$e/enable
	echo 0 >$d/options/userstacktrace_deferred
	rmdir $d
}
echo 'comm == "ustack-dash"' >$e/filter &&
	echo 1 >$d/options/userstacktrace_deferred || { cleanup; exit 1; }

# One run of dash at depth $1: $tmp/maps-$1, $tmp/trace-$1
run() {
	n=$1
	fifo=$tmp/fifo
	rm -f $fifo
	mkfifo $fifo || return 1
	echo >$d/trace
	# shellcheck disable=SC2016
	$prog -c 'f() { if [ $1 -gt 0 ]; then f $(($1 - 1)); else
		read x <'$fifo'; echo "$x"; fi; }; f '"$n" >$tmp/out-$n &
	pid=$!
	# Its files are all mapped once it sleeps, in the open of the fifo
	i=0
	until [ "$(readlink /proc/$pid/exe)" = $prog ] &&
		grep -q 'libc\.so' /proc/$pid/maps 2>/dev/null &&
		grep -q '^State:.*S' /proc/$pid/status 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt 100 ] && { kill $pid; return 1; }
		sleep 0.1
	done
	cat /proc/$pid/maps >$tmp/maps-$n
	# From here on its only reads are the builtin's (the dynamic
	# loader's came before)
	echo 1 >$e/enable || return 1
	echo hello >$fifo
	wait $pid || return 1
	echo 0 >$e/enable
	grep -qx hello $tmp/out-$n || return 1
	cat $d/trace >$tmp/trace-$n
}

# The stacks of the reads in $tmp/trace-$1, one file of addresses each:
# $tmp/s-$1-K; prints how many
split() {
	rm -f $tmp/s-$1-*
	awk -v p=$tmp/s-$1- '
		/sys_read\(/ { want = 1; next }
		/<user stack deferred> cookie=/ { if (want) keep[$NF] = 1
			want = 0; next }
		/<user stack unwind> cookie=/ { if (f) close(f); f = ""
			if (keep[$NF]) f = p (++k); next }
		/^ => / && f { a = $0; sub(/.*</, "", a); sub(/>.*/, "", a)
			print a > f; next }
		{ if (f) close(f); f = ""; want = 0 }
		END { print k + 0 }' $tmp/trace-$1
}

bad=0
arch=$(uname -m)
fig="arch=$arch"
notcall=0
for n in 0 3; do
	if ! run $n; then
		echo "depth $n: the dash run failed"
		bad=1
		continue
	fi
	# "hello" and its newline: read(2) one byte at a time, a stack each
	reads=$(grep -c 'sys_read(' $tmp/trace-$n)
	stacks=$(split $n)
	echo "depth $n: $reads reads, $stacks stacks"
	if [ "$reads" -lt 6 ] || [ "$stacks" -ne "$reads" ]; then
		echo "depth $n: not one stack per read"
		grep -e 'sys_read(' -e '<user stack' $tmp/trace-$n | head -20
		bad=1
	fi
	depth=
	for s in $tmp/s-$n-*; do
		[ -e "$s" ] || continue
		ustack-syms $tmp/maps-$n <$s >$s.syms || { bad=1; continue; }
		f=$(grep -c '^#' $s.syms)
		dash=$(grep -c ' [^ ]*/ustack-dash+' $s.syms)
		c=$(sed -n 's/.* notcall=\([0-9]*\).*/\1/p' $s.syms)
		notcall=$((notcall + c))
		# every read of one run has the same stack
		if [ -n "$depth" ] && [ "$f/$dash" != "$depth" ]; then
			echo "depth $n: two reads with different stacks"
			cat $s.syms
			bad=1
		fi
		depth=$f/$dash
		case $arch in ppc64*) ;; *) continue ;; esac
		ok=1
		# "#N ADDR FILE+OFF SYM|ALIAS+OFF call=": the innermost in
		# libc's read, the outermost in its __libc_start_main
		first=$(awk '$1 == "#0" { print $3, "|" $4 }' $s.syms)
		last=$(awk '/^#/ { l = "|" $4 } END { print l }' $s.syms)
		case ${first%+*} in
		*/libc.so*' '*'|read' | */libc.so*' '*'|__read' | \
		*/libc.so*' '*'|__libc_read') ;;
		*) ok=0 ;;
		esac
		# read's caller is dash (its builtin): a stale link register
		# would show a return into libc here, a doubled frame
		case $(awk '$1 == "#1" { print $3 }' $s.syms) in
		*/ustack-dash+*) ;;
		*) ok=0 ;;
		esac
		case ${last%+*} in
		*'|__libc_start_main'*) ;;
		*) ok=0 ;;
		esac
		grep -q ' unmapped=0 notcall=0 edges=[0-9]* badedges=0$' $s.syms ||
			ok=0
		# read's caller called it through its PLT stub: a lost frame
		# #1 would put an edge of another kind (or none) there
		awk '$1 == "#1" { exit $NF != "edge=ok" }' $s.syms || ok=0
		ne=$(sed -n 's/.* edges=\([0-9]*\) .*/\1/p' $s.syms)
		[ "${ne:-0}" -ge 5 ] || ok=0
		[ "$dash" -ge 5 ] || ok=0
		if [ $ok = 0 ]; then
			echo "depth $n: a stack that is not libc's read up to __libc_start_main:"
			cat $s.syms
			bad=1
		fi
	done
	fig="$fig depth$n=${depth%/*} dash$n=${depth#*/}"
	eval "dash_$n=\${depth#*/}"
done
cleanup
case $arch in
ppc64*)
	# f() three levels deeper: three times the frames of one level
	more=$((${dash_3:-0} - ${dash_0:-0}))
	if [ $more -le 0 ] || [ $((more % 3)) -ne 0 ]; then
		echo "depth 3 has $more dash frames more than depth 0"
		bad=1
	fi
	;;
esac
ftn-figure ustack-libc "$fig notcall=$notcall"
exit $bad
