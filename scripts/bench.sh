#!/bin/sh
# bench.sh: make bench. Builds three x86_64 kernels from the same config
# fragments (make test's plus configs/bench.config; the series, stock 6.1
# and stock 6.12, Debian's source packages) with the benchmark module
# bench/fgraph-bench.c, boots each under QEMU -icount with
# guest/plans/bench.sh (beside the next builds) and writes
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

"$s/tree.sh" --lenient
xk=${KERNELS-series stock-6.1 stock-6.12}
pk=${PPC_KERNELS-series series-mflr-off stock-6.1}

# where KERNEL (series | stock-VERSION, checked below) of ARCH is built:
# sets src o absent
where() { # arch kernel
	case $2 in
	series) src=$top/build/linux absent="" ;;
	*) src=$(unpack "${2#stock-}") absent=1 ;;
	esac
	o=$out/obj-$1-$2
}

# Every kernel is built from configs/bench.config on top of the make test
# fragments (the same for all of them, so the comparison stays fair), in
# its own object tree: the fragment leaves out what only the tests need,
# and a bench kernel never replaces make test's. One after another in the
# background, each announced by build/bench/built-ARCH-KERNEL (ok or
# failed), while the x86_64 boots run beside them: -icount makes their
# figures count guest instructions, which the host's load does not move.
# The ppc64le boots measure wall time, so they wait for the last build.
builds=""
for k in $xk; do builds="$builds x86_64-$k"; done
for k in $pk; do
	k=${k%-mflr-off}
	case " $builds " in *" ppc64le-$k "*) ;; *) builds="$builds ppc64le-$k" ;; esac
done
for b in $builds; do
	case ${b#*-} in
	series | stock-*) ;;
	*) echo "bench: unknown kernel ${b#*-} (series, stock-VERSION)" >&2; exit 1 ;;
	esac
done
rm -f "$out"/built-*
builder() {
	for b in $builds; do
		arch=${b%%-*} k=${b#*-}
		where "$arch" "$k"
		ext=""
		[ "$arch" = x86_64 ] && ext=$top/bench
		echo "bench: build $arch $k ($(elapsed))"
		if SRC=$src O=$o ABSENT_OK=$absent EXTMOD=$ext \
			FRAGS=$top/configs/bench.config \
			"$s/build.sh" "$arch" >"$out/build-$b.log" 2>&1 &&
			SRC=$src O=$o "$s/initramfs.sh" "$arch" >/dev/null; then
			# The options this kernel lacks, so no figure hides a
			# config change
			grep -e 'is absent here' -e 'cannot be switched off' "$out/build-$b.log" |
				sed "s/^build: note/bench: $b/" || true
			echo ok >"$out/built-$b"
		else
			tail -n 30 "$out/build-$b.log"
			echo "bench: build $b failed (log: build/bench/build-$b.log)"
			echo failed >"$out/built-$b"
		fi
	done
}
built() { # arch-kernel: wait for its build; false when it failed
	while [ ! -f "$out/built-$1" ]; do
		kill -0 "$bpid" 2>/dev/null || {
			echo "bench: the builder stopped before $1" >&2
			return 1
		}
		sleep 5
	done
	[ "$(cat "$out/built-$1")" = ok ]
}
builder &
bpid=$!
# On the way out (a failed boot, ^C) no build may go on without us
unbuild() { # the builder and all under it, stopped, then signalled
	[ -n "$bpid" ] || return 0
	l=$("$s/ptree.sh" "$bpid")
	# shellcheck disable=SC2086
	{ kill $l; kill -CONT $l; } 2>/dev/null || :
}
trap unbuild EXIT
# (a shell killed by a signal runs no EXIT trap)
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

for k in $xk; do
	built "x86_64-$k" || exit 1
	where x86_64 "$k"
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

wait $bpid || true
bpid="" # reaped: its number may now be another process's
for k in $pk; do
	append=""
	[ "$k" = series-mflr-off ] && append=ppc_ftrace_nop_mflr=off
	built "ppc64le-${k%-mflr-off}" || exit 1
	where ppc64le "${k%-mflr-off}"
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
