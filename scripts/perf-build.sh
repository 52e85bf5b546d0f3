#!/bin/sh
# perf-build.sh: build the tree's perf tool (tools/perf of build/linux) as
# a static program for a guest, with ccache, out of tree in
# build/perf-ARCH, and print its path. Only what the deferred callchain
# tests need: libelf and zlib from Debian's packages (symbols of static
# programs and the kernel); no python, perl, gtk, slang, libunwind, dwarf,
# libbpf or libtraceevent plugins. make keeps it up to date.
# Usage: scripts/perf-build.sh ARCH   (x86_64 only)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
arch=${1:?usage: perf-build.sh ARCH}
src=${SRC:-$top/build/linux}
out=$top/build/perf-$arch
[ "$arch" = x86_64 ] || { echo "perf-build: x86_64 only" >&2; exit 1; }
for p in libelf-dev zlib1g-dev flex bison; do
	dpkg -s "$p" >/dev/null 2>&1 ||
		{ echo "perf-build: needs $p (scripts/setup.sh)" >&2; exit 1; }
done
mkdir -p "$out"
# (ccache's depend mode, as scripts/kcc.sh uses it for the kernel: no
# second preprocessor run per miss; not timed for perf. perf's sources
# have no .incbin, and its -MD dependency files name the system headers.)
CCACHE_DEPEND=1 make -s -C "$src/tools/perf" O="$out" -j"${JOBS:-$(nproc)}" \
	CC="ccache gcc" LDFLAGS=-static WERROR=1 \
	NO_LIBPYTHON=1 NO_LIBPERL=1 NO_GTK2=1 NO_SLANG=1 NO_LIBNUMA=1 \
	NO_LIBUNWIND=1 NO_LIBDW_DWARF_UNWIND=1 NO_DWARF=1 NO_LIBBPF=1 \
	NO_BPF_SKEL=1 NO_LIBAUDIT=1 NO_LIBCRYPTO=1 NO_LIBZSTD=1 NO_LIBCAP=1 \
	NO_LIBBABELTRACE=1 NO_JVMTI=1 NO_DEMANGLE=1 NO_SDT=1 NO_LZMA=1 \
	NO_LIBPFM4=1 NO_AUXTRACE=1 perf >"$out/build.log" 2>&1 || {
	grep -v 'statically linked' "$out/build.log" | tail -n 30 >&2
	exit 1
}
strip -o "$out/perf.stripped" "$out/perf"
echo "$out/perf.stripped"
