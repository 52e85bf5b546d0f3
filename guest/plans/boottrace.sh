# boottrace.sh: guest plan fragment: check what the kernel command line
# started at boot (ftrace=, ftrace_filter=, ftrace_notrace=,
# ftrace_graph_filter=, trace_event=, trace_options=, tp_printk), report it as
# "boottrace <tracer>", then put tracing back as a plain boot has it so
# that the plan's own tests start from there. scripts/test.sh names what
# each boot starts (APPEND). Without ftrace= it reports nothing.
# Usage (in a plan): ftn_boottrace

# ftn_boot_arg NAME: the value of NAME= on the kernel command line
ftn_boot_arg() {
	tr ' ' '\n' </proc/cmdline | sed -n "s/^$1=//p"
}

ftn_boottrace() {
	tracer=$(ftn_boot_arg ftrace)
	[ -n "$tracer" ] || return 0
	t=/sys/kernel/tracing
	filter=$(ftn_boot_arg ftrace_filter | tr , ' ')
	notrace=$(ftn_boot_arg ftrace_notrace | tr , ' ')
	gfilter=$(ftn_boot_arg ftrace_graph_filter | tr , ' ')
	events=$(ftn_boot_arg trace_event | tr , ' ')
	opts=$(ftn_boot_arg trace_options | tr , ' ')
	bad=""
	# What the boot has done so far is in the buffer; a read of a file
	# makes sure a vfs_read is there too
	cat /proc/version >/dev/null
	echo 0 >$t/tracing_on
	trace=/tmp/boottrace
	cat $t/trace >$trace
	cur=$(cat $t/current_tracer)
	[ "$cur" = "$tracer" ] || bad="$bad current_tracer=$cur"
	# The functions the trace shows: "f <-parent" lines of function,
	# "f() {" and "f();" lines of function_graph
	funcs=/tmp/boottrace-funcs
	sed -n -e 's/.*: \([A-Za-z0-9_.]*\) <-.*/\1/p' \
		-e 's/.*| *\([A-Za-z0-9_.]*\)() *[{;].*/\1/p' $trace |
		sort | uniq -c >$funcs
	nf=$(wc -l <$funcs)
	[ "$nf" -gt 0 ] || bad="$bad no-functions"
	if [ -n "$filter" ]; then
		# Every function traced matches a filter glob, every glob a
		# function traced
		r=$(awk -v globs="$filter" 'BEGIN { n = split(globs, g, " ")
				for (i = 1; i <= n; i++) {
					gsub(/\*/, ".*", g[i]); g[i] = "^" g[i] "$" } }
			{ m = 0
			  for (i = 1; i <= n; i++) if ($2 ~ g[i]) { m = 1; hit[i] = 1 }
			  if (!m) print "outside-filter=" $2 }
			END { for (i = 1; i <= n; i++)
				if (!(i in hit)) print "none-of=" g[i] }' $funcs |
			head -3)
		bad="$bad$(echo $r | sed 's/^./ &/')"
	fi
	for f in $notrace; do
		grep -q "^ *[0-9]* $f$" $funcs && bad="$bad notrace-traced=$f"
	done
	for f in $gfilter; do
		grep -q "^ *[0-9]* $f$" $funcs || bad="$bad none-of=$f"
		grep -qx "$f" $t/set_graph_function ||
			bad="$bad set_graph_function-lacks=$f"
	done
	for e in $events; do
		grep -q " ${e#*:}: " $trace || bad="$bad no-event=$e"
	done
	# tp_printk: the events went to the kernel log as well
	tp=0
	if tr ' ' '\n' </proc/cmdline | grep -qx tp_printk; then
		tp=1
		for e in $events; do
			dmesg | grep -q " ${e#*:}: " || bad="$bad no-printk=$e"
		done
		[ "$(cat /proc/sys/kernel/tracepoint_printk)" = 1 ] ||
			bad="$bad tracepoint_printk-off"
	fi
	for o in $opts; do
		case $o in
		no*) want=0 o=${o#no} ;;
		*) want=1 ;;
		esac
		[ "$(cat $t/options/$o)" = "$want" ] || bad="$bad option=$o"
	done
	# With userstacktrace_deferred every request's cookie gets its stack;
	# each unserved request is kept with the line before it. (The cookie
	# by its pattern: function_graph ends the line with "*/".)
	unserved_reqs=/tmp/boottrace-unserved
	awk '{ c = ""; if (match($0, /cookie=[0-9a-f]+/))
			c = substr($0, RSTART, RLENGTH) }
		/<user stack deferred> cookie=/ { want[c] = prev "\n" $0 }
		/<user stack unwind> cookie=/ { got[c] = 1 }
		{ prev = $0 }
		END { for (c in want) if (!(c in got)) print want[c] }' \
		$trace >$unserved_reqs
	reqs=$(grep -c '<user stack deferred> cookie=' $trace)
	stacks=$(grep -c '<user stack unwind> cookie=' $trace)
	unserved=$(grep -c '<user stack deferred> cookie=' $unserved_reqs)
	case " $opts " in
	*" userstacktrace_deferred "*)
		[ "$reqs" -gt 0 ] || bad="$bad no-deferred-requests"
		[ "$unserved" = 0 ] || bad="$bad unserved-cookies=$unserved"
		;;
	esac
	# powerpc: the call sites fit their records and, in nop;nop mode
	# (a POWER10 boot of a kernel with the option, "ftrace-powerpc:
	# untraced call sites:" in the log, unless the command line says
	# otherwise), the untraced ones lose the mflr that enabling the
	# tracer before the scheduler ran put back
	sites=/sys/kernel/debug/powerpc/ftrace_sites
	if [ -r $sites ]; then
		mode=$(sed -n 's/^untraced //p' $sites)
		grep -q '^cpu.*POWER10' /proc/cpuinfo &&
			dmesg | grep -q 'ftrace-powerpc: untraced call sites:' &&
			! grep -q 'ppc_ftrace_nop_mflr=' /proc/cmdline &&
			[ "$mode" != "nop;nop" ] && bad="$bad sites-mode=$mode"
		w=0
		while [ "$mode" = "nop;nop" ] && [ $w -lt 30 ] &&
			grep -q '^mflr;nop ' $sites; do
			sleep 1
			w=$((w + 1))
		done
		[ "$mode" = "nop;nop" ] && grep -q '^mflr;nop ' $sites &&
			bad="$bad untraced-mflr-after-30s"
		grep -qx 'bad 0' $sites || bad="$bad sites-bad"
	fi
	ftn-figure boottrace "tracer=$tracer lines=$(wc -l <$trace) tp_printk=$tp" \
		"functions=$nf requests=$reqs stacks=$stacks unserved=$unserved"
	r=PASS
	if [ -n "$bad" ]; then
		r=FAIL
		echo "boottrace: $(cat /proc/cmdline)"
		echo "boottrace: wrong:$bad"
		head -20 $funcs
		# Each unserved request with the line before it
		head -12 $unserved_reqs
	fi
	ftn-result boottrace "$tracer" $r

	# A plain boot's state: no tracer, no filters, no events, the
	# options back, an empty buffer, tracing on
	echo nop >$t/current_tracer
	echo >$t/set_ftrace_filter
	echo >$t/set_ftrace_notrace
	echo >$t/set_graph_function
	echo 0 >$t/events/enable
	# (else every event the plan's tests enable goes to the console too)
	[ $tp -eq 0 ] || echo 0 >/proc/sys/kernel/tracepoint_printk
	for o in $opts; do
		case $o in
		no*) echo 1 >$t/options/${o#no} ;;
		*) echo 0 >$t/options/$o ;;
		esac
	done
	echo >$t/trace
	echo 1 >$t/tracing_on
	rm -f $trace $funcs $unserved_reqs
}
