#!/bin/sh
# initramfs.sh: make the base initramfs of one arch's guest: Debian's static
# busybox and perl (scripts/guest-tools.sh), guest/ (init, plans, helpers,
# our tests), the tree's tools/testing/selftests/ftrace, the kernel's
# modules, guest/src/*.c built as static programs, and on x86_64 the tree's
# perf (scripts/perf-build.sh). The plan is added
# per boot by scripts/boot.sh.
# Usage: scripts/initramfs.sh ARCH   (uses and writes build/ARCH[-FLAVOUR])
# Env: O (kernel build dir, default build/ARCH), SRC (default build/linux).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
arch=${1:?usage: initramfs.sh ARCH}
src=${SRC:-$top/build/linux}
out=${O:-$top/build/$arch}
case $arch in
x86_64) cc=gcc ;;
ppc64le) cc=powerpc64le-linux-gnu-gcc ;;
*) echo "initramfs: unknown arch $arch" >&2; exit 1 ;;
esac
"$top/scripts/guest-tools.sh" "$arch"

root=$out/initramfs-root
rm -rf "$root"
mkdir -p "$root/usr/bin" "$root/lib/modules"
cp -a "$top/build/dl/$arch/root/." "$root/"
cp "$top/guest/init" "$root/init"
# /bin/sh is dash, as on Debian; busybox provides the other commands.
ln -sf dash "$root/bin/sh"
cp -r "$top/guest/plans" "$root/plans"
cp "$top/guest/bin/"* "$root/usr/bin/"
mkdir -p "$root/tests" "$root/stress"
for t in "$top"/guest/stress/*.sh; do
	[ -e "$t" ] && cp "$t" "$root/stress/"
done
for t in "$top"/guest/tests/*.sh; do
	[ -e "$t" ] && cp "$t" "$root/tests/"
done
cp -r "$src/tools/testing/selftests/ftrace" "$root/ftrace"
rm -rf "$root/ftrace/logs"
[ -d "$out/mods/lib/modules" ] && cp -a "$out/mods/lib/modules/." "$root/lib/modules/"

# Static helpers, with frame pointers so that user stacks can be walked.
for c in "$top"/guest/src/*.c; do
	[ -e "$c" ] || continue
	"$cc" -static -O2 -g0 -fno-omit-frame-pointer -Wall -Werror \
		-o "$root/usr/bin/$(basename "$c" .c)" "$c" -lpthread
done
# 32-bit helpers for x86_64 guests (compat tasks), without libc
if [ "$arch" = x86_64 ]; then
	for c in "$top"/guest/src-i386/*.c; do
		[ -e "$c" ] || continue
		gcc -m32 -static -nostdlib -ffreestanding -fno-pic -no-pie -O2 \
			-fno-omit-frame-pointer -Wall -Werror \
			-o "$root/usr/bin/$(basename "$c" .c)" "$c"
	done
fi
# The series' perf, for the deferred callchain tests (guest/tests/perf-*.sh);
# not for make bench's stock trees, whose guests need no perf
if [ "$arch" = x86_64 ] && [ "$src" = "$top/build/linux" ]; then
	perf=$(SRC=$src "$top/scripts/perf-build.sh" "$arch")
	cp "$perf" "$root/usr/bin/perf"
fi
chmod +x "$root/init" "$root/usr/bin/"*

(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0 |
	gzip -1) >"$out/initramfs.cpio.gz.new"
mv "$out/initramfs.cpio.gz.new" "$out/initramfs.cpio.gz"
echo "initramfs: $out/initramfs.cpio.gz ($(du -h "$out/initramfs.cpio.gz" | cut -f1))"
