# bench-ustack.sh: the user stack part of make bench, sourced by the
# bench plans of both arches (guest/plans/bench.sh, bench-ppc.sh), which
# set t (tracefs), runs and msg (print a line on the console and fd 3).
# Needs ustack-bench, ustack-syms and test_unwind_deferred.ko (where
# built) in the initramfs.
# User stacks, a getppid() event per call made 32 frames deep
# (ustack-bench): the event alone, with the synchronous userstacktrace,
# with userstacktrace_deferred where the kernel has it. Then with the
# callers' stack pages not faulted in ("cold", 200 calls): per kind,
#   FTN-BENCH ucold KIND stacks=S full=F frames=N
# S stacks of ustack-bench, F of them complete (sync: its 8-entry
# maximum; deferred: all 32 frames and the 2 below them), N frames in all.
depth=32 ucalls=2000
echo 4096 >$t/buffer_size_kb
echo 1 >$t/events/syscalls/sys_enter_getppid/enable || exit 1
ustack() { # kind [option]
	if [ -n "$2" ] && ! echo 1 >$t/options/$2 2>/dev/null; then
		msg "FTN-BENCH ustack $1 refused"
		return
	fi
	v=$(ustack-bench $depth $ucalls $runs | sort -n | tr '\n' ' ')
	[ -z "$2" ] || echo 0 >$t/options/$2
	msg "FTN-BENCH ustack $1 $v"
}
ucold() { # kind option full
	echo >$t/trace
	if ! echo 1 >$t/options/$2 2>/dev/null; then
		msg "FTN-BENCH ucold $1 refused"
		return
	fi
	ustack-bench $depth 200 1 cold >/dev/null
	echo 0 >$t/options/$2
	v=$(awk -v full="$3" '
		function done() { if (on) { s++; f += n; if (n >= full) c++ } on = 0 }
		/^ =>/ { n++; next }
		{ done() }
		$1 ~ /^ustack-bench/ && /<user stack (trace|unwind)>/ { on = 1; n = 0 }
		END { done(); printf "stacks=%d full=%d frames=%d", s, c, f }' $t/trace)
	msg "FTN-BENCH ucold $1 $v"
}
ustack event
ustack sync userstacktrace
ustack deferred userstacktrace_deferred
ucold sync userstacktrace 8
ucold deferred userstacktrace_deferred $((depth + 2))
echo 0 >$t/events/syscalls/sys_enter_getppid/enable
echo >$t/trace
# perf: a perf event of ustack-bench samples every getppid() with its
# callchain (tracepoint, period 1), the user part walked in the sample or
# deferred (the series); no ftrace event. Per kind, the ns per call as
# above, then the samples, those complete (all 34 user entries), the user
# entries in all and the records lost, warm and cold (200 calls):
#   FTN-BENCH pstack KIND ns...   FTN-BENCH pwarm|pcold KIND samples=S full=F frames=N lost=L
pstack() { # kind: none | sync | defer
	mode=${1#none}
	v=$(ustack-bench $depth $ucalls $runs warm ${mode:+perf-$mode} 2>/dev/null)
	if [ $? = 3 ]; then
		msg "FTN-BENCH pstack $1 refused"
		return
	fi
	msg "FTN-BENCH pstack $1 $(echo "$v" | grep -v '^perf' | sort -n | tr '\n' ' ')"
	[ -n "$mode" ] || return
	msg "FTN-BENCH pwarm $1 $(echo "$v" | sed -n 's/^perf //p')"
	v=$(ustack-bench $depth 200 1 cold perf-$mode 2>/dev/null)
	msg "FTN-BENCH pcold $1 $(echo "$v" | sed -n 's/^perf //p')"
}
pstack none
pstack sync
pstack defer
# Debian's dash in libc's read(), neither with frame pointers: the figure
# of guest/tests/ustack-libc.sh (frames of each stack, dash's among them)
#   FTN-BENCH ulibc arch=A depth0=F dash0=D depth3=F dash3=D notcall=C
if [ -e $t/options/userstacktrace_deferred ]; then
	v=$(sh /tests/ustack-libc.sh 3>/dev/null >/tmp/ulibc.out; echo "rc=$?")
	f=$(sed -n 's/^FTN-FIGURE ustack-libc //p' /tmp/ulibc.out)
	# a failed check's figures are not results
	[ "$v" = rc=0 ] || f="failed ($v) $f"
	msg "FTN-BENCH ulibc ${f:-failed}"
else
	msg "FTN-BENCH ulibc refused"
fi
# The request path (the series' test module), ps per request, in task
# context and from a self-NMI: an entry's first request, then the fast
# path (callback already pending)
#   FTN-BENCH ureq task|nmi pending=P first=P | refused
if modprobe test_unwind_deferred 2>/dev/null; then
	d=/sys/kernel/debug/unwind_deferred_test
	ureq() { # kind command stats-prefix
		if echo "$2 10000" >$d/ctl 2>/dev/null; then
			msg "FTN-BENCH ureq $1 $(tr ' ' '\n' <$d/stats | sed -n \
				"s/^bench_$3first_ps=/first=/p; s/^bench_$3ps=/pending=/p" |
				tr '\n' ' ')"
		else
			msg "FTN-BENCH ureq $1 refused"
		fi
	}
	ureq task bench ""
	ureq nmi benchnmi nmi_
	rmmod test_unwind_deferred
fi
