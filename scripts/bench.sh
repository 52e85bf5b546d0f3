#!/bin/sh
# bench.sh: make bench. Builds three x86_64 kernels from the same config
# fragments (the series, stock 6.1 and stock 6.12, Debian's source
# packages) with the benchmark module bench/fgraph-bench.c, boots each
# under QEMU -icount with guest/plans/bench.sh and writes
# build/bench/results.md and results.png (scripts/bench-report.sh).
# Then the ppc64le part: the series (twice: as booted, and with
# ppc_ftrace_nop_mflr=off, the stock patching in the same kernel) and
# stock 6.1 on the POWER10 model with guest/plans/bench-ppc.sh.
# Usage: scripts/bench.sh
# Env: KERNELS="series stock-6.1 stock-6.12" (x86_64),
#      PPC_KERNELS="series series-mflr-off stock-6.1" (ppc64le; empty: none)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
s=$top/scripts
out=$top/build/bench
mkdir -p "$out"
t0=$(date +%s)
elapsed() { echo "$(($(date +%s) - t0))s"; }

"$s/setup.sh" linux-source-6.12 gnuplot-nox

# A stock tree: Debian's tarball unpacked once, untouched afterwards.
unpack() { # version
	d=$out/src-$1
	if [ ! -f "$d/.unpacked" ]; then
		echo "bench: unpacking linux-source-$1" >&2
		rm -rf "$d" && mkdir -p "$d"
		tar -xf "/usr/src/linux-source-$1.tar.xz" -C "$d" \
			--strip-components=1
		: >"$d/.unpacked"
	fi
	echo "$d"
}

for k in ${KERNELS-series stock-6.1 stock-6.12}; do
	case $k in
	series)
		"$s/tree.sh" --lenient
		src=$top/build/linux o=$top/build/x86_64 absent=""
		;;
	stock-*)
		src=$(unpack "${k#stock-}") o=$out/$k absent=1
		;;
	*) echo "bench: unknown kernel $k" >&2; exit 1 ;;
	esac
	echo "bench: build $k ($(elapsed))"
	SRC=$src O=$o ABSENT_OK=$absent EXTMOD=$top/bench \
		"$s/build.sh" x86_64 >"$out/build-$k.log" 2>&1 || {
		tail -n 30 "$out/build-$k.log"
		echo "bench: build $k failed (log: build/bench/build-$k.log)"
		exit 1
	}
	# The options this kernel lacks, so no figure hides a config change
	grep 'is absent here' "$out/build-$k.log" | sed "s/^build: note/bench: $k/" ||
		true
	SRC=$src O=$o "$s/initramfs.sh" x86_64 >/dev/null
	mkdir -p "$o/extra"
	cp "$o/extmod/fgraph-bench.ko" "$o/extra/"
	echo "bench: boot $k ($(elapsed))"
	# -icount shift=0: the guest clock advances 1 ns per instruction, so
	# the figures count guest instructions and the host's load does not
	# move them; sleep=off keeps idle time from stretching them.
	QEMU_OPTS="-icount shift=0,sleep=off" SMP=1 SHOW=none TIMEOUT=1800 \
		"$s/boot.sh" x86_64 "$o/boot-image" "$o/initramfs.cpio.gz" \
		"$top/guest/plans/bench.sh" "$out/$k" "$o/extra" >"$out/boot-$k.log" 2>&1 || {
		cat "$out/boot-$k.log"
		echo "bench: boot $k failed (console: build/bench/$k.console)"
		exit 1
	}
done

for k in ${PPC_KERNELS-series series-mflr-off stock-6.1}; do
	append=""
	case $k in
	series | series-mflr-off)
		"$s/tree.sh" --lenient
		src=$top/build/linux o=$top/build/ppc64le absent=""
		[ $k = series ] || append=ppc_ftrace_nop_mflr=off
		;;
	stock-6.1)
		src=$(unpack 6.1) o=$out/ppc64le-$k absent=1
		;;
	*) echo "bench: unknown ppc64le kernel $k" >&2; exit 1 ;;
	esac
	echo "bench: build ppc64le $k ($(elapsed))"
	SRC=$src O=$o ABSENT_OK=$absent "$s/build.sh" ppc64le \
		>"$out/build-ppc64le-$k.log" 2>&1 || {
		tail -n 30 "$out/build-ppc64le-$k.log"
		echo "bench: build ppc64le $k failed (log: build/bench/build-ppc64le-$k.log)"
		exit 1
	}
	SRC=$src O=$o "$s/initramfs.sh" ppc64le >/dev/null
	echo "bench: boot ppc64le $k ($(elapsed))"
	# Wall time: -icount hangs this guest early in boot.
	CPU=POWER10 APPEND=$append SHOW=none TIMEOUT=1200 \
		"$s/boot.sh" ppc64le "$o/boot-image" "$o/initramfs.cpio.gz" \
		"$top/guest/plans/bench-ppc.sh" "$out/ppc64le-$k" \
		>"$out/boot-ppc64le-$k.log" 2>&1 || {
		cat "$out/boot-ppc64le-$k.log"
		echo "bench: boot ppc64le $k failed (console: build/bench/ppc64le-$k.console)"
		exit 1
	}
	# The mflr count in the image, for kernels without a checker.
	echo "FTN-BENCH scan $("$s/ppc-mflr-sites.sh" "$o/vmlinux")" \
		>>"$out/ppc64le-$k.results"
done
PPC_KERNELS=${PPC_KERNELS-series series-mflr-off stock-6.1} \
	"$s/bench-report.sh" "$out"
echo "bench: done in $(elapsed)"
