#!/bin/sh
# test.sh: make test. Set up, apply series/ to the base, checkpatch every
# patch, build x86_64 and ppc64le, boot each guest with the full plan
# (ftracetest and our tests) and the stress plan, compare with expect/,
# print the figures the guests report, then print a
# per-arch summary and the line "N passed, N failed, N skipped".
# Usage: scripts/test.sh   (env BOOTS="label ..." runs only those boots)
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

# The harness must fail what it claims to fail. Each check boots a plan that
# provokes a real WARN, a real panic or a hang, and passes only when boot.sh
# rejects that boot for that reason.
harness() {
	o=$top/build/$1
	for h in warn:1:'kernel reports' panic:125:'without FTN-EXIT' \
		hang:124:'killed'; do
		name=${h%%:*} rest=${h#*:}
		want=${rest%%:*} why=${rest#*:}
		tmo=120
		[ "$name" = hang ] && tmo=20
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

echo "test: checkpatch --strict ($(elapsed))"
"$s/checkpatch.sh" "$tally"

# Every boot of make test, labelled [stress-|debug-]ARCH[-CPU]: the full
# plan (ftracetest and guest/tests) on 2 vCPUs; with "stress-" the stress
# plan (guest/stress) on 4 vCPUs (multi-threaded TCG on ppc64le; on x86_64
# single-threaded: there, enabling function_graph on every function under
# multi-threaded TCG hangs the guest now and then, stock 6.1 included, see
# README "Known stock bugs"); with
# "debug-" the debug kernel (configs/debug.config: lockdep, KASAN, UBSAN,
# ...) on 4 vCPUs with the reduced debug plan, and its objtool warnings
# compared with those of the stock base built the same way.
boots=${BOOTS:-"x86_64 stress-x86_64 debug-x86_64 ppc64le-POWER9 ppc64le-POWER10 stress-ppc64le"}

# guest/stress/fgraph-churn.sh runs CHURN_ROUNDS rounds (kernel command
# line): 10 in the x86_64 stress boot (about 3 s a round), 5 on the debug
# kernel (about 30 s a round; from the fourth on, slots change hands),
# none on ppc64le, whose lane has no time left in the 60 minutes.
parse() { # boot label: sets plan smp accel flavour arch cpu expect key churn
	plan=full smp=2 accel="" flavour="" spec=$1 churn=""
	case $1 in
	stress-x86_64*) plan=stress smp=4 spec=${1#stress-} churn=10 ;;
	stress-*)
		plan=stress smp=4 accel=tcg,thread=multi spec=${1#stress-}
		churn=0
		;;
	debug-*) plan=debug smp=4 flavour=debug spec=${1#debug-} churn=5 ;;
	esac
	arch=${spec%%-*}
	cpu=""
	[ "$arch" != "$spec" ] && cpu=${spec#*-}
	expect=$arch
	[ "$plan" = full ] || expect=$plan
	# A plan's expectations for one arch, where they differ (stress-ppc64le)
	[ "$plan" = full ] || [ ! -f "$top/expect/$plan-$arch.txt" ] ||
		expect=$plan-$arch
	key=$arch${flavour:+-$flavour}
}

# Phase 1: every kernel the boots need, one after another (each build
# uses every core).
built=""
for b in $boots; do
	parse "$b"
	case " $built " in *" $key "* | *" $key-failed "*) continue ;; esac
	echo "test: build $key ($(elapsed))"
	# shellcheck disable=SC2086
	if step "build-$key" env ${flavour:+REBUILD=1} "$s/build.sh" \
		"$arch" $flavour &&
		step "initramfs-$key" env O="$top/build/$key" \
			"$s/initramfs.sh" "$arch"; then
		built="$built $key"
	else
		built="$built $key-failed"
		continue
	fi
	if [ -n "$flavour" ]; then
		"$s/objtool-check.sh" "$out/build-$key.log" \
			"$top/expect/objtool-$key.txt" "$key" "$tally"
	fi
	if [ "$key" = x86_64 ]; then
		echo "test: harness self-checks ($(elapsed))"
		harness "$arch"
	fi
done

boot() { # boot label: boot it, compare with expect/
	parse "$1"
	case " $built " in *" $key "*) ;; *) return 0 ;; esac
	echo "test: boot $1, $plan plan ($(elapsed))"
	o=$top/build/$key
	if ACCEL=${accel:-${ACCEL:-}} CPU=$cpu SMP=$smp SHOW=none \
		APPEND="${APPEND:-}${churn:+ CHURN_ROUNDS=$churn}" \
		TIMEOUT=${TIMEOUT:-2400} "$s/boot.sh" "$arch" "$o/boot-image" \
		"$o/initramfs.cpio.gz" "$top/guest/plans/$plan.sh" \
		"$out/$1" >"$out/boot-$1.log" 2>&1; then
		echo "PASS boot $1: exit 0, console clean" >>"$tally"
	else
		echo "FAIL boot $1 (log: build/test/$1.console)" >>"$tally"
		sed 's/^/  boot| /' "$out/boot-$1.log"
	fi
	# Figures the guest reported (ftn-figure), for the log of the run
	sed -n "s/^FTN-FIGURE /figure: $1: /p" "$out/$1.results" 2>/dev/null
	"$s/results.sh" "$1" "$out/$1.results" "$top/expect/$expect.txt" "$tally"
	echo "test: boot $1 done ($(elapsed))"
}

# Phase 2: the boots, in two lanes at once, x86_64 and ppc64le. A guest on
# single-threaded TCG keeps one host core busy, so two lanes use the two
# cores of the machine make test is sized for; measured, each boot then
# takes about a third longer than alone, and the boots about two thirds
# of their serial time. Each lane's boots run one after another.
lane() {
	for b; do
		boot "$b"
	done
}
xl="" pl=""
for b in $boots; do
	case $b in *ppc64le*) pl="$pl $b" ;; *) xl="$xl $b" ;; esac
done
# shellcheck disable=SC2086
lane $xl &
# shellcheck disable=SC2086
lane $pl &
wait
echo "test: done in $(elapsed)"
exec "$s/tally.sh" "$tally"
