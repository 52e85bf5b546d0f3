#!/bin/sh
# test.sh: make test and make test-full. Set up, apply series/ to the base,
# checkpatch every patch (in the background, beside the first build),
# build x86_64, the x86_64 debug kernel and ppc64le,
# boot each guest with its plan (ftracetest, stress, debug), compare with
# expect/, print the figures the guests report, then print a per-boot
# summary and the line "N passed, N failed, N skipped".
# Usage: scripts/test.sh        make test: the boots that fit 60 minutes
#        FULL=1 scripts/test.sh make test-full: every boot, every plan whole
#        (env BOOTS="label ..." runs only those boots, each as make
#        test runs it, or as make test-full does with FULL=1)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
s=$top/scripts
out=$top/build/test
tally=$out/tally
rm -rf "$out" && mkdir -p "$out"
: >"$tally"
t0=$(date +%s)

step() { # name command...: one tally line for a step that must succeed
	n=$1
	shift
	if "$@" >"$out/$n.log" 2>&1; then
		echo "PASS $n" >>"$tally"
	else
		echo "FAIL $n (log: build/test/$n.log)" >>"$tally"
		tail -n 30 "$out/$n.log" | sed "s/^/  $n| /"
		return 1
	fi
}
elapsed() { echo "$(($(date +%s) - t0))s"; }

# ^C (or TERM, HUP) stops what this run started: jobs in the background
# of a non-interactive shell ignore SIGINT, so the builder, the boot
# workers with their guests and checkpatch went on without us. The trap
# is the main shell's only: those jobs, subshells, reset it. Its roots
# are the jobs' numbers from $!, those still our children (not the
# handler's own command substitutions, nor a number reused since).
jobs=""
stop() { # status signal
	# (PIPE too: with "make test | tee log", ^C kills tee first, and
	# the echo below would end us before anything was stopped)
	trap '' INT TERM HUP PIPE
	echo "test: $2, stopping its jobs ($(elapsed))"
	kids=" $(ps -o pid= --ppid $$ | tr -s ' \n' '  ') "
	l=""
	for j in $jobs; do
		case $kids in *" $j "*) l="$l $("$s/ptree.sh" "$j")" ;; esac
	done
	# (stopped first, all of the tree, then signalled: none of them can
	# start a guest the list missed; SIGCONT lets the TERM in)
	# shellcheck disable=SC2086
	[ -z "$l" ] || { kill $l; kill -CONT $l; } 2>/dev/null
	wait
	# (the jobs' children end after them, boot.sh and build.sh removing
	# their folders: up to 30 s for them to go, so that a run started
	# next does not race them; no SIGKILL, as a number freed meanwhile
	# may be another process's)
	i=0
	while [ "$i" -lt 30 ]; do
		left=0
		for p in $l; do kill -0 "$p" 2>/dev/null && left=$((left + 1)); done
		[ "$left" -eq 0 ] && break
		sleep 1
		i=$((i + 1))
	done
	[ "$left" -eq 0 ] || echo "test: $left of its processes still ending"
	exit "$1"
}
trap 'stop 130 interrupted' INT
trap 'stop 143 terminated' TERM
trap 'stop 129 hung up' HUP

# The harness must fail what it claims to fail. Each check boots a plan that
# provokes a real WARN, a real panic or a hang, and passes only when boot.sh
# rejects that boot for that reason.
harness() {
	o=$top/build/$1
	# (stall: RCU reports it 21 s after it starts; stall-watch.sh stops
	# the guest 20 s later, well inside the 400 s timeout)
	for h in warn:1:'kernel reports' panic:125:'without FTN-EXIT' \
		hang:124:'killed' stall:123:'stuck after a kernel report'; do
		name=${h%%:*} rest=${h#*:}
		want=${rest%%:*} why=${rest#*:}
		tmo=120
		[ "$name" = hang ] && tmo=20
		[ "$name" = stall ] && tmo=400
		STALL_GRACE=20 \
		SHOW=none TIMEOUT=$tmo "$s/boot.sh" "$1" "$o/boot-image" \
			"$o/initramfs.cpio.gz" "$top/guest/plans/harness-$name.sh" \
			"$out/harness-$name" >"$out/harness-$name.log" 2>&1
		rc=$?
		if [ "$rc" = "$want" ] && grep -q "$why" "$out/harness-$name.log"
		then
			echo "PASS harness $name: boot rejected ($why, status $rc)" >>"$tally"
		else
			echo "FAIL harness $name: status $rc, want $want ($why)" >>"$tally"
			tail -n 20 "$out/harness-$name.log" | sed 's/^/  harness| /'
		fi
	done
}

echo "test: setup and tree"
"$s/setup.sh" || { echo "FAIL setup" >>"$tally"; exec "$s/tally.sh" "$tally"; }
"$s/tree.sh" || { echo "FAIL tree" >>"$tally"; exec "$s/tally.sh" "$tally"; }

# checkpatch.pl in the background, beside the host checks below and the
# x86_64 build (make -j2: it shares the cores); the final wait collects
# it, and its report is printed then. Before, checkpatch and the host
# checks ran alone, one core idle, 62-148 s of the cold run of 2026-11-27
# 14:34.
echo "test: checkpatch --strict, in the background ($(elapsed))"
{ "$s/checkpatch.sh" "$tally" >"$out/checkpatch.log" 2>&1 ||
	echo "FAIL checkpatch.sh: exit $? (log: build/test/checkpatch.log)" \
		>>"$tally"
	echo "test: checkpatch done ($(elapsed))" >>"$out/checkpatch.log"; } &
jobs="$jobs $!"
# ftracetest's selftest/bashisms.tc, on the host (the guests have no perl)
step checkbashisms "$s/checkbashisms.sh"
# combo.sh's function_graph pairing check, on known traces (the host)
step combo-selfcheck "$s/combo-selfcheck.sh"

# Every boot, labelled [stress-|debug-|series-]ARCH[-CPU]: the full
# plan (ftracetest and guest/tests) on 2 vCPUs; with "series-" the reduced
# plan (guest/plans/series.sh: the cases the series adds or changes);
# with "stress-" the stress plan (guest/stress) on 4 vCPUs; with "debug-"
# the debug kernel
# (configs/debug.config: lockdep, KASAN, UBSAN, ...) on 4 vCPUs with the
# reduced debug plan, and its objtool warnings compared with those of the
# stock base built the same way.
#
# make test: all of ftracetest on x86_64 and on the POWER10 model (the
# series' nop;nop call sites), the reduced plan on the POWER9 model, the
# stress plan on POWER10 (where it races the two-phase patching), the
# debug boot; the 4-vCPU x86_64 stress boot is left to make test-full,
# since the debug boot runs the same stress programs with 4 vCPUs under
# the checkers. make test-full runs every plan whole on both models.
# The boots are listed longest first, the debug boot (the longest) right
# after the x86_64 suite, whose kernel comes first, so that its kernel is
# built second and it starts while the ppc64le kernel builds; two
# workers take the boots in that order, each the first whose kernel is
# built (a single-threaded TCG guest keeps one host core busy; the
# machine make test is sized for has two).
if [ -n "${BOOTS:-}" ]; then
	boots=$BOOTS
elif [ -n "${FULL:-}" ]; then
	# (longest first, so that two workers end near together; measured
	# on 2026-11-27: debugfull-x86_64 83 minutes, the ppc64le debug
	# boot 33, the x86_64 suite 19, the rest 10 or less; stress-x86_64
	# was listed last then and had not begun after 80 minutes; rerun
	# beside the last 50 minutes of the others, it took 68 minutes, 45
	# of them its fuzz writes)
	boots="debugfull-x86_64 stress-x86_64 debugfull-ppc64le-POWER10 \
		x86_64 ppc64le-POWER10 ppc64le-POWER9 stress-ppc64le-POWER10"
else
	boots="x86_64 debug-x86_64 ppc64le-POWER10 stress-ppc64le-POWER10 \
		series-ppc64le-POWER9"
fi

# guest/stress/fgraph-churn.sh runs CHURN_ROUNDS rounds (kernel command
# line): 10 in the x86_64 stress boot (about 3 s a round), 5 on the debug
# kernel (89 s cold for 5, 66 s for 3, 2026-11-27: not fewer, since only
# from the fourth round on do slots change hands),
# none on ppc64le, where the stress boot's time goes to mflr-flip.sh.
# guest/stress/tracefs-fuzz.sh makes FUZZ_WRITES writes: 10600 on the debug
# kernel (about 6 minutes; no write is made where the open fails, as for
# a target this kernel lacks: 10600 tries made 10000 writes or so),
# 106000 in the x86_64 stress boot (make test-full: 100000 tries made
# 94946 writes in 45 minutes, 2026-11-27), 5000 on ppc64le (about a
# minute).
# guest/stress/combo.sh runs COMBO_ROUNDS rounds, one tracer each in
# turn: 10 on the debug kernel (x86_64 has 10 tracers to draw), 8 on
# ppc64le (7 tracers: no irqsoff/preemptoff there), 40 in test-full's
# x86_64 stress boot.
parse() { # boot label: sets plan smp flavour arch cpu expect key, and
	# churn fuzz combo comboskip ftskip stressskip (the stress scripts'
	# lengths, what a boot leaves out)
	plan=full smp=2 flavour="" spec=$1 churn="" fuzz="" combo="" comboskip="" ftskip=""
	stressskip=""
	case $1 in
	stress-x86_64*) plan=stress smp=4 spec=${1#stress-} churn=10 \
		fuzz=106000 combo=40 ;;
	stress-*) plan=stress smp=4 spec=${1#stress-} churn=0 fuzz=5000 \
		combo=8 ;;
	# (without FULL, the x86_64 debug boot leaves out two stress scripts
	# that stress-ppc64le-POWER10 runs: mflr-flip.sh, aimed at powerpc's
	# patching, and hotplug-fgraph.sh; 143 s of the 1835 s that boot, the
	# longest of make test, took cold on 2026-11-27; make test-full's
	# debugfull-x86_64 runs both)
	debug-*) plan=debug smp=4 flavour=debug spec=${1#debug-} churn=5 \
		fuzz=10600 combo=4
		case $1 in debug-x86_64*)
			[ -n "${FULL:-}" ] ||
				stressskip=mflr-flip,hotplug-fgraph ;;
		esac ;;
	# make test-full: the whole suite under the checkers, both arches
	debugfull-x86_64*) plan=debugfull smp=4 flavour=debug \
		spec=${1#debugfull-} churn=5 fuzz=10000 combo=10 ;;
	# (the ppc64le debug kernel has the preemptirq events, lockdep's, which
	# livelock that TCG guest: its combination rounds leave them out, and
	# ftracetest's case that enables every event is not run: README)
	debugfull-*) plan=debugfull smp=4 flavour=debug \
		spec=${1#debugfull-} churn=0 fuzz=5000 combo=8 \
		comboskip=preemptirq \
		ftskip=event/toplevel-enable.tc,event/userstacktrace-deferred-exit.tc ;;
	series-*) plan=series spec=${1#series-} ;;
	# make test leaves to make test-full the stock direct-call case that
	# took 403 s of the x86_64 suite cold (2026-11-27): the series' own
	# direct/ftrace-direct-fgraph.tc stays
	x86_64) [ -n "${FULL:-}" ] || ftskip=direct/ftrace-direct.tc ;;
	esac
	arch=${spec%%-*}
	cpu=""
	[ "$arch" != "$spec" ] && cpu=${spec#*-}
	expect=$arch
	[ "$plan" = full ] || expect=$plan
	# A plan's expectations for one arch, where they differ (stress-ppc64le)
	[ "$plan" = full ] || [ ! -f "$top/expect/$plan-$arch.txt" ] ||
		expect=$plan-$arch
	# What make test leaves out of a boot that make test-full runs whole
	[ -z "$ftskip$stressskip" ] || [ -n "${FULL:-}" ] ||
		[ ! -f "$top/expect/maketest-$1.txt" ] ||
		expect="$expect maketest-$1"
	# The whole suite and the stress plan under the checkers: both lists
	# (the checkers add no expected non-pass of their own)
	if [ "$plan" = debugfull ]; then
		expect="$arch stress"
		[ -f "$top/expect/stress-$arch.txt" ] && expect="$arch stress-$arch"
		[ -f "$top/expect/debugfull-$arch.txt" ] &&
			expect="$expect debugfull-$arch"
	fi
	key=$arch${flavour:+-$flavour}
	# What the boot's kernel command line starts, checked by
	# guest/plans/boottrace.sh before the plan's tests: each tracer from
	# boot on each arch, on POWER10 with the series' nop; nop call sites
	# (the function tracer starts in start_kernel(), function_graph at
	# core_initcall), on POWER10 with tp_printk as well (events to the
	# kernel log). Not on the debug kernel: a boot-time tracer turns
	# off the startup selftests that its plan checks. (trace_instance=
	# came in 6.2: 6.1 has no boot-time instances.)
	boottrace=""
	case $1 in
	x86_64) boottrace="ftrace=function_graph ftrace_graph_filter=vfs_read
		trace_event=sched:sched_process_exec
		trace_options=userstacktrace_deferred" ;;
	stress-x86_64 | ppc64le-POWER9)
		boottrace="ftrace=function ftrace_filter=vfs_*
		ftrace_notrace=vfs_write trace_event=sched:sched_process_exec" ;;
	ppc64le-POWER10)
		boottrace="ftrace=function ftrace_filter=vfs_*
		ftrace_notrace=vfs_write trace_event=sched:sched_process_exec
		tp_printk" ;;
	stress-ppc64le-POWER10 | series-ppc64le-POWER9)
		boottrace="ftrace=function_graph ftrace_graph_filter=vfs_read" ;;
	esac
	# one line, without letting the shell expand vfs_*
	boottrace=$(printf '%s' "$boottrace" | tr -s ' \t\n' '   ')
}

# Phase 1, in the background: every kernel the boots need, one after
# another, in the order the boots need them, each announced by
# build/test/kernel-KEY ("ok" or "failed"). A worker starts a boot as soon
# as its kernel is there, so the builds that follow share the cores with
# the first boots.
order=""
for b in $boots; do
	parse "$b"
	case " $order " in *" $key "*) ;; *) order="$order $key" ;; esac
done

builder() {
	for key in $order; do
		arch=${key%%-*} flavour=""
		[ "$arch" != "$key" ] && flavour=${key#*-}
		echo "test: build $key ($(elapsed))"
		# shellcheck disable=SC2086
		if step "build-$key" env ${flavour:+REBUILD=1} "$s/build.sh" \
			"$arch" $flavour &&
			step "initramfs-$key" env O="$top/build/$key" \
				"$s/initramfs.sh" "$arch"; then
			echo ok >"$out/kernel-$key"
		else
			echo failed >"$out/kernel-$key"
			continue
		fi
		# (objtool checks x86_64 objects only in 6.1)
		if [ -n "$flavour" ] && [ "$arch" = x86_64 ]; then
			"$s/objtool-check.sh" "$out/build-$key.log" \
				"$top/expect/objtool-$key.txt" "$key" "$tally"
		fi
		# (beside the next build: four short boots, one at a time)
		if [ "$key" = x86_64 ]; then
			echo "test: harness self-checks ($(elapsed))"
			harness "$arch" &
		fi
	done
	wait
}

boot() { # boot label: boot it, compare with expect/
	parse "$1"
	[ "$(cat "$out/kernel-$key")" = ok ] || return 0
	echo "test: boot $1, $plan plan ($(elapsed))"
	fuzzarg=${fuzz:+ FUZZ_WRITES=$fuzz}${combo:+ COMBO_ROUNDS=$combo}
	fuzzarg=$fuzzarg${comboskip:+ COMBO_SKIP=$comboskip}${ftskip:+ FTRACETEST_SKIP=$ftskip}
	fuzzarg=$fuzzarg${stressskip:+ STRESS_SKIP=$stressskip}
	# The whole suite on a debug kernel may run past an hour, and so may
	# make test-full's x86_64 stress boot (2026-11-27: stopped at 3600 s
	# beside the x86_64 debug boot, in the concurrent part of its 100000
	# fuzz writes): make test-full has no time budget; a hung guest
	# still ends
	tmo=3600
	{ [ "$plan" = debugfull ] || [ -n "${FULL:-}" ]; } && tmo=7200
	# make test ends by DEADLINE seconds (4800, 80 minutes) whatever
	# hangs without a kernel report (stall-watch.sh stops those with
	# one): inside the CI's 90 minutes, with its summary
	if [ -z "${FULL:-}" ]; then
		left=$((${DEADLINE:-4800} - ($(date +%s) - t0)))
		if [ "$left" -lt 120 ]; then
			echo "FAIL boot $1: not started, make test's deadline" \
				"(${DEADLINE:-4800}s) is near" >>"$tally"
			return 0
		fi
		[ "$left" -lt "$tmo" ] && tmo=$left
	fi
	o=$top/build/$key
	# A boot that shares the cores with a build and another boot runs
	# far slower than alone: the x86_64 suite next to the cold ppc64le
	# and debug builds passed 1900 s (1276 s with only one other boot).
	# A guest hung late in the run would still take make test past the
	# CI's 90 minutes with 3600 s alone (2026-11-26: a stress boot
	# started at 2262 s hung): hence the deadline below.
	if CPU=$cpu SMP=$smp SHOW=none \
		APPEND="${APPEND:-}${churn:+ CHURN_ROUNDS=$churn}$fuzzarg $boottrace" \
		TIMEOUT=${TIMEOUT:-$tmo} "$s/boot.sh" "$arch" "$o/boot-image" \
		"$o/initramfs.cpio.gz" "$top/guest/plans/$plan.sh" \
		"$out/$1" >"$out/boot-$1.log" 2>&1; then
		echo "PASS boot $1: exit 0, console clean" >>"$tally"
	else
		echo "FAIL boot $1 (log: build/test/$1.console)" >>"$tally"
		sed 's/^/  boot| /' "$out/boot-$1.log"
	fi
	# Figures the guest reported (ftn-figure), for the log of the run
	sed -n "s/^FTN-FIGURE /figure: $1: /p" "$out/$1.results" 2>/dev/null
	for e in $expect; do
		cat "$top/expect/$e.txt"
	done >"$out/expect-$1.txt"
	"$s/results.sh" "$1" "$out/$1.results" "$out/expect-$1.txt" "$tally"
	echo "test: boot $1 done ($(elapsed))"
}

# Phase 2, at once with phase 1: two workers share the list of boots.
# shellcheck disable=SC2086
printf '%s\n' $boots >"$out/queue"
next_boot() { # the first queued boot whose kernel is built, taken off
	# the queue; "wait" when none is built yet; nothing when none is left
	until mkdir "$out/queue.lock" 2>/dev/null; do sleep 1; done
	r=""
	while read -r b; do
		parse "$b"
		if [ -f "$out/kernel-$key" ]; then
			r=$b
			break
		fi
		r="wait"
	done <"$out/queue"
	if [ -n "$r" ] && [ "$r" != wait ]; then
		grep -vx "$r" "$out/queue" >"$out/queue.new"
		mv "$out/queue.new" "$out/queue"
	fi
	rmdir "$out/queue.lock"
	echo "$r"
}
worker() {
	while :; do
		b=$(next_boot)
		case $b in
		"") return ;;
		wait) sleep 5 ;;
		*) boot "$b" ;;
		esac
	done
}
builder &
jobs="$jobs $!"
worker &
jobs="$jobs $!"
worker &
jobs="$jobs $!"
wait
cat "$out/checkpatch.log"
echo "test: done in $(elapsed)"
exec "$s/tally.sh" "$tally"
