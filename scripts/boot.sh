#!/bin/sh
# boot.sh: boot a kernel and initramfs in QEMU (TCG) with a plan, under a hard
# timeout. The console goes to LOG.console (and, filtered, to stdout); the
# guest's FTN-* lines arrive on a second serial port in LOG.results, where
# kernel messages cannot interleave with them. Exit status: the plan's
# (FTN-EXIT), 124 on timeout, 125 when the guest ended without FTN-EXIT,
# 123 when stall-watch.sh stopped it after a stall, lockup, oops or panic
# report.
# Usage: scripts/boot.sh ARCH KERNEL INITRD PLAN LOG [EXTRA_DIR]
#   PLAN: a shell script run as /plan; EXTRA_DIR: copied to /extra.
# Env: CPU (ppc64le: POWER9 | POWER10; x86_64: max), SMP (2), MEM (1024),
#      ACCEL (default tcg,thread=single; see below),
#      TIMEOUT (seconds, 1200), STALL_GRACE (stall-watch.sh), QEMU_OPTS (more QEMU options, for
#      example "-icount shift=0"), INTERACTIVE=1 (console on this terminal,
#      no timeout), SHOW=all|user|none (what of the console to echo: user
#      hides kernel lines).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
arch=$1 kernel=$2 initrd=$3 plan=$4 log=$5 extra=${6:-}
smp=${SMP:-2} mem=${MEM:-1024} tmo=${TIMEOUT:-1200} show=${SHOW:-user}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# (a shell killed by a signal runs no EXIT trap: make test's ^C)
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
mkdir -p "$tmp/root"
cp "$plan" "$tmp/root/plan"
[ -n "$extra" ] && cp -r "$extra" "$tmp/root/extra"
(cd "$tmp/root" && find . | cpio -o -H newc --quiet | gzip -1) >"$tmp/plan.gz"
cat "$initrd" "$tmp/plan.gz" >"$tmp/initrd"

mkdir -p "$(dirname "$log")"
rm -f "$log.console" "$log.results"
res=$log.results
case $arch in
x86_64)
	cpu=${CPU:-max}
	# tsc=reliable: TCG derives every vCPU's TSC from the one host clock,
	# but the boot-time sync check, run on vCPUs that single-threaded TCG
	# interleaves, marks it unstable in some boots and not in others. An
	# unstable TSC switches the default trace clock to "global", which
	# stalls while interrupts are off; preemptirq/irqsoff_tracer.tc then
	# measured its 500 ms irqs-off section as 497-499 ms (5 of 5 tries)
	# and fails. With the flag every boot keeps the "local" clock.
	# Single-threaded TCG: with one host thread per vCPU, stock 6.1 hung
	# in 2 of 2 tries at "echo function_graph > current_tracer" right
	# after the wakeup tracers (ftracetest 00basic/basic2.tc); with one
	# thread for all vCPUs it passed. Cross-vCPU code patching under
	# multi-threaded TCG is the suspect; README, Known stock bugs.
	set -- qemu-system-x86_64 -accel "${ACCEL:-tcg,thread=single}" -cpu "$cpu" \
		-append "console=ttyS0 panic=-1 ftn.results=/dev/ttyS1 tsc=reliable ${APPEND:-}" \
		-chardev "file,id=res,path=$res" -serial mon:stdio \
		-device isa-serial,chardev=res
	;;
ppc64le)
	cpu=${CPU:-POWER9}
	# Single-threaded TCG here too, although QEMU picks multi-threaded
	# for ppc64 guests: with one host thread per vCPU, a 4-vCPU stress
	# boot beside another boot on two host cores livelocked (RCU stalls
	# in mflr-flip, CPU hotplug under function_graph never ending), and
	# one thread is faster too: the POWER10 ftracetest suite took 871 s
	# single-threaded, 1189 s multi-threaded (each beside another boot).
	set -- qemu-system-ppc64 -accel "${ACCEL:-tcg,thread=single}" -cpu "$cpu" \
		-M pseries,cap-htm=off,cap-cfpc=broken,cap-sbbc=broken,cap-ibs=broken,cap-ccf-assist=off \
		-vga none \
		-append "panic=-1 ftn.results=/dev/hvc1 ${APPEND:-}" \
		-chardev "file,id=res,path=$res" -serial mon:stdio \
		-device spapr-vty,chardev=res
	;;
*)
	echo "boot: unknown arch $arch" >&2
	exit 1
	;;
esac
# shellcheck disable=SC2086
set -- "$@" ${QEMU_OPTS:-} -smp "$smp" -m "$mem" -display none -no-reboot \
	-kernel "$kernel" -initrd "$tmp/initrd" -pidfile "$tmp/qemu.pid"

if [ -n "${INTERACTIVE:-}" ]; then
	"$@"
	exit 0
fi

echo "boot: $arch ($cpu, $smp cpus), timeout ${tmo}s, log $log.console"
# Kernel lines carry a printk timestamp; SHOW=user echoes the rest.
case $show in
all) filter=cat ;;
user) filter="grep -av --line-buffered '^\[ *[0-9]*\.[0-9]*\]'" ;;
*) filter="cat >/dev/null" ;;
esac
rc=0
: >"$log.console"
"$top/scripts/stall-watch.sh" "$log.console" "$res" "$tmp/qemu.pid" \
	"$tmp/stalled" &
watch=$!
# (--foreground: QEMU stays in our process group, so a signal to the
# group (make test's ^C, a CI's TERM) reaches it too; in its own group
# it outlived a TERM to make test's group until its own timeout)
{ timeout --foreground -k 10 "$tmo" "$@" </dev/null 2>&1 ||
	echo "FTN-QEMU-STATUS $?"; } |
	sed -u 's/\r$//' | tee "$log.console" | sh -c "$filter" || true
kill "$watch" 2>/dev/null || true
wait "$watch" 2>/dev/null || true
tr -d '\r' <"$res" >"$tmp/res" 2>/dev/null && cp "$tmp/res" "$res"
if [ -s "$tmp/stalled" ]; then
	echo "boot: FAIL: guest stuck after a kernel report, stopped" \
		"${STALL_GRACE:-120}s later with no test finished nor user output:" >&2
	sed 's/^/  | /' "$tmp/stalled" >&2
	rc=123
elif grep -q '^FTN-QEMU-STATUS 124$' "$log.console"; then
	echo "boot: FAIL: guest still running after ${tmo}s, killed" >&2
	rc=124
elif ! grep -q '^FTN-EXIT ' "$res"; then
	echo "boot: FAIL: guest ended without FTN-EXIT (panic or crash?)" >&2
	tail -n 40 "$log.console" | sed 's/^/  | /' >&2
	rc=125
else
	rc=$(sed -n 's/^FTN-EXIT \([0-9]*\)$/\1/p' "$res" | tail -1)
fi
"$top/scripts/scan-console.sh" "$log.console" || { [ "$rc" = 0 ] && rc=1; }
exit "$rc"
