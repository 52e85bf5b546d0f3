#!/bin/sh
# stall-watch.sh: stop a QEMU guest that a kernel report says is stuck, so
# that a hung boot costs minutes, not its whole timeout. Polls the console
# log; after a report of an RCU stall, a soft lockup, a hung task, an
# oops or a panic, the guest has GRACE seconds to finish a test (its
# results log grows). If
# none finishes, the report's line goes to MARK and QEMU is stopped. Such a
# report fails the boot anyway (scan-console.sh); the grace only lets the
# guest print its backtraces and, if it recovers, its remaining results.
# Returns when QEMU is gone.
# Usage: scripts/stall-watch.sh CONSOLE RESULTS PIDFILE MARK
# Env: STALL_GRACE (seconds, 120)
set -u
con=$1 res=$2 pidf=$3 mark=$4
grace=${STALL_GRACE:-120}
# (a panic that oopses again on its way, as a ppc64le guest with a
# corrupted stack did on 2026-11-27, never reboots: without the last two
# it sat out its boot's whole timeout, two hours in make test-full)
pat='detected stall|self-detected stall|soft lockup|blocked for more than'
pat="$pat|Kernel panic - not syncing|Oops: "
re="^\[ *[0-9]+\.[0-9]+\] .*($pat)"

size() { wc -c <"$1" 2>/dev/null || echo 0; }
pid=""
alive() { [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; }

# QEMU writes its pid file once it has started
i=0
while [ ! -s "$pidf" ]; do
	i=$((i + 1))
	[ $i -gt 120 ] && exit 0
	sleep 1
done
pid=$(cat "$pidf")

seen=0 since="" rsz=0 line=""
while alive; do
	sleep 5
	n=$(grep -caE "$re" "$con" 2>/dev/null) || n=0
	if [ "$n" -gt "$seen" ] && [ -z "$since" ]; then
		since=$(date +%s) rsz=$(size "$res")
		line=$(grep -aE "$re" "$con" | sed -n "$((seen + 1))p")
	fi
	seen=$n
	[ -n "$since" ] || continue
	if [ "$(size "$res")" -gt "$rsz" ]; then
		since="" # a test finished after the report: not stuck
		continue
	fi
	[ $(($(date +%s) - since)) -ge "$grace" ] || continue
	printf '%s\n' "$line" >"$mark"
	kill "$pid" 2>/dev/null
	sleep 10
	kill -9 "$pid" 2>/dev/null
	exit 0
done
