#!/bin/sh
# stall-watch.sh: stop a QEMU guest that a kernel report says is stuck, so
# that a hung boot costs minutes, not its whole timeout. Polls the console
# log; after a report of an RCU stall, a soft lockup, a hung task, an
# oops or a panic, the guest has GRACE seconds to show progress: a test
# finished (its results log grows) or a line from user space on the
# console (ftracetest prints one per case, but reports its results only
# at its end). If
# none comes, the report's line goes to MARK and QEMU is stopped. Such a
# report fails the boot anyway (scan-console.sh); the grace only lets the
# guest print its backtraces and, if it recovers, its remaining results.
# Returns when QEMU is gone.
# Usage: scripts/stall-watch.sh CONSOLE RESULTS PIDFILE MARK
# Env: STALL_GRACE (seconds, 120)
set -u
con=$1 res=$2 pidf=$3 mark=$4
grace=${STALL_GRACE:-120}
# A panic whose own reporting oopses or hangs may never reboot the
# guest, nor may an oops that leaves a lock held: then the boot would sit
# out its timeout, two hours for make test-full's debug boots. So panics
# and oopses count too (the first line of every oops on powerpc and
# x86 carries "[#N]": "Oops: ... [#1]", "invalid opcode: 0000 [#1] ...").
pat='detected stall|self-detected stall|soft lockup|blocked for more than'
pat="$pat|Kernel panic - not syncing|\\[#[0-9]+\\]"
re="^\[ *[0-9]+\.[0-9]+\] .*($pat)"
# console lines from user space: those without a kernel timestamp
user() {
	c=$(grep -cav '^\[ *[0-9]*\.[0-9]*\]' "$con" 2>/dev/null) || c=${c:-0}
	echo "$c"
}

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

seen=0 since="" rsz=0 usz=0 line=""
while alive; do
	sleep 5
	n=$(grep -caE "$re" "$con" 2>/dev/null) || n=0
	if [ "$n" -gt "$seen" ] && [ -z "$since" ]; then
		since=$(date +%s) rsz=$(size "$res") usz=$(user)
		line=$(grep -aE "$re" "$con" | sed -n "$((seen + 1))p")
	fi
	seen=$n
	[ -n "$since" ] || continue
	if [ "$(size "$res")" -gt "$rsz" ] || [ "$(user)" -gt "$usz" ]; then
		since="" # progress after the report: not stuck
		continue
	fi
	[ $(($(date +%s) - since)) -ge "$grace" ] || continue
	printf '%s\n' "$line" >"$mark"
	kill "$pid" 2>/dev/null
	sleep 10
	kill -9 "$pid" 2>/dev/null
	exit 0
done
