#!/bin/sh
# guest-tools.sh: unpack the Debian userland a guest needs into
# build/dl/ARCH/root: static busybox; what busybox lacks or does
# differently: util-linux's chrt (tracer/wakeup*.tc),
# coreutils' nice (inter-event trigger tests), and dash for /bin/sh, which
# execs commands by their path where busybox's shell re-execs itself as
# /proc/self/exe (trigger-synthetic-event-dynstring.tc reads the exec'd
# filename). Debian's checkbashisms goes to build/dl/ARCH/checkbashisms,
# outside the guest: scripts/checkbashisms.sh runs it on the host (perl in
# a TCG guest is too slow for it). Packages are
# fetched with apt-get download for the guest's Debian arch, never installed
# on the host.
# Usage: scripts/guest-tools.sh ARCH
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
arch=${1:?usage: guest-tools.sh ARCH}
case $arch in
x86_64) darch=amd64 ;;
ppc64le) darch=ppc64el ;;
*) echo "guest-tools: unknown arch $arch" >&2; exit 1 ;;
esac
dir=$top/build/dl/$arch
pkgs="busybox-static libc6 libcrypt1 devscripts util-linux coreutils dash"
want=$(echo "$pkgs" | tr ' ' '\n' | sort | tr '\n' ' ')
[ "$(cat "$dir/.done" 2>/dev/null)" = "$want" ] && exit 0

rm -rf "$dir" && mkdir -p "$dir/deb" "$dir/root"
cd "$dir/deb"
for p in $pkgs; do
	apt-get download -q "$p:$darch" >/dev/null 2>&1 || {
		echo "guest-tools: apt-get download $p:$darch failed" >&2
		exit 1
	}
done
for d in *.deb; do
	dpkg-deb -x "$d" "$dir/root"
done
cd "$dir"
rm -rf deb
# Keep chrt, nice and dash; drop the rest.
mkdir keep
cp root/usr/bin/chrt root/usr/bin/nice keep/
cp root/usr/bin/checkbashisms "$dir/"
cp root/bin/dash root/bin/busybox "$dir/"
rm -rf root/usr/bin/* root/usr/sbin root/sbin root/usr/share root/etc \
	root/usr/lib/python3* root/usr/lib/*/gconv root/usr/libexec \
	root/lib/*/security root/usr/lib/*/lib*.so* \
	root/lib/*/libsystemd* root/lib/*/libudev* root/lib/*/libblkid* \
	root/lib/*/libmount* root/lib/*/libsmartcols* root/lib/*/libuuid*
mv keep/* root/usr/bin/
rmdir keep
rm -rf root/bin/*
mv "$dir/dash" "$dir/busybox" root/bin/
[ -x root/bin/busybox ] || { echo "guest-tools: no busybox" >&2; exit 1; }
echo "$want" >.done
