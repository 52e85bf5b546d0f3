#!/bin/sh
# build.sh: build build/linux out of tree for one arch with ccache: tinyconfig
# plus the fragments in configs/, a check that every option the fragments
# ask for really stuck, then the kernel image and modules (installed
# stripped under $O/mods).
# Usage: scripts/build.sh ARCH [FLAVOUR]
#   ARCH: x86_64 | ppc64le; FLAVOUR: a configs/FLAVOUR.config added on top
#   (for example "debug"), built in build/ARCH-FLAVOUR.
# Env: SRC (default build/linux), O (default build/ARCH[-FLAVOUR]),
#      FRAGS (extra fragment files), JOBS (default nproc),
#      REBUILD=1 (recompile every object, for a complete objtool report),
#      ABSENT_OK=1 (options this tree lacks, or cannot switch off, are
#      noted, not fatal: the stock base has none of the series' options),
#      EXTMOD=DIR (also build the external module in DIR against this
#      kernel, in $O/extmod).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
arch=${1:?usage: build.sh ARCH [FLAVOUR]}
flavour=${2:-}
src=${SRC:-$top/build/linux}
out=${O:-$top/build/$arch${flavour:+-$flavour}}
jobs=${JOBS:-$(nproc)}

case $arch in
x86_64)
	karch=x86 cross="" image=bzImage
	;;
ppc64le)
	karch=powerpc cross=powerpc64le-linux-gnu- image=vmlinux
	;;
*)
	echo "build: unknown arch $arch (x86_64, ppc64le)" >&2
	exit 1
	;;
esac
frags="$top/configs/tracing.config $top/configs/$arch.config"
# A flavour's options for every arch, then those of this arch alone
# (configs/FLAVOUR-ARCH.config, where it exists)
[ -n "$flavour" ] && frags="$frags $top/configs/$flavour.config"
[ -n "$flavour" ] && [ -f "$top/configs/$flavour-$arch.config" ] &&
	frags="$frags $top/configs/$flavour-$arch.config"
frags="$frags ${FRAGS:-}"
for f in $frags; do
	[ -f "$f" ] || { echo "build: no fragment $f" >&2; exit 1; }
done

export CCACHE_BASEDIR="$top" CCACHE_NOHASHDIR=true
# Fixed build identity: init/version.c then hits ccache too.
export KBUILD_BUILD_USER=ftrace-next KBUILD_BUILD_HOST=qemu
export KBUILD_BUILD_TIMESTAMP="${KBUILD_BUILD_TIMESTAMP:-2000-01-01}"
mkdir -p "$out"
out=$(cd "$out" && pwd)
kobj=$out # the object tree kmake works in
kmake() {
	make -s -C "$src" O="$kobj" ARCH=$karch CROSS_COMPILE=$cross \
		CC="$top/scripts/kcc.sh ${cross}gcc" HOSTCC="ccache gcc" "$@"
}

# Configure from scratch every time: cheap, and nothing stale survives. The
# result replaces .config only when it differs, so kbuild rebuilds nothing.
# All of it in an empty object tree: "make tinyconfig" merges its tiny.config
# fragments into the .config of the object tree, whatever KCONFIG_CONFIG
# says, so in $out it started from the previous build's configuration and
# an option once off stayed off. An empty tree gives every build what a
# fresh clone gets.
cfg=$(mktemp -d)
trap 'rm -rf "$cfg"' EXIT
# (a shell killed by a signal runs no EXIT trap: make test's ^C)
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
kobj=$cfg/o
mkdir "$kobj"
kmake KCONFIG_CONFIG="$cfg/.config" tinyconfig >/dev/null 2>&1
# shellcheck disable=SC2086
(cd "$cfg" && "$src/scripts/kconfig/merge_config.sh" -m -O "$cfg" \
	"$cfg/.config" $frags >/dev/null 2>&1)
kmake KCONFIG_CONFIG="$cfg/.config" olddefconfig >/dev/null 2>&1
kobj=$out

# What the fragments ask for, the last fragment winning as in the merge.
# shellcheck disable=SC2086
sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*\)=\(.*\)$/\1 \2/p' \
	-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1 n/p' $frags |
	awk '{ want[$1] = $2 } END { for (s in want) print s, want[s] }' |
	sort | while read -r sym val; do
	got=$(sed -n -e "s/^$sym=//p" -e "s/^# $sym is not set\$/n/p" \
		"$cfg/.config")
	[ -z "$got" ] && got=absent
	[ "$got" = absent ] && [ "$val" = n ] && continue
	if [ "$got" = absent ] && [ -n "${ABSENT_OK:-}" ]; then
		echo "build: note: $sym is absent here (no such option, or its dependencies unmet)" >&2
		continue
	fi
	# A stock tree may force on what the fragments switch off (6.12:
	# MICROCODE has no prompt): noted like an absent option
	if [ "$val" = n ] && [ "$got" != n ] && [ -n "${ABSENT_OK:-}" ]; then
		echo "build: note: $sym=$got here, cannot be switched off" >&2
		continue
	fi
	[ "$got" = "$val" ] || echo "build: want $sym=$val, got $got"
done >"$cfg/bad"
if [ -s "$cfg/bad" ]; then
	cat "$cfg/bad" >&2
	echo "build: $arch: options above did not stick" >&2
	exit 1
fi
cmp -s "$cfg/.config" "$out/.config" || cp "$cfg/.config" "$out/.config"

# REBUILD: drop the objects (ccache still has them) so that objtool runs
# on every one again and its warnings are all in this build's output.
[ -n "${REBUILD:-}" ] && find "$out" -name '*.o' -delete
echo "build: $arch${flavour:+ $flavour}: make -j$jobs $image modules"
kmake -j"$jobs" $image modules
rm -rf "$out/mods"
kmake INSTALL_MOD_PATH="$out/mods" INSTALL_MOD_STRIP=1 modules_install \
	>/dev/null
if [ -n "${EXTMOD:-}" ]; then
	rm -rf "$out/extmod"
	cp -r "$EXTMOD" "$out/extmod"
	echo "build: $arch${flavour:+ $flavour}: module $EXTMOD"
	kmake M="$out/extmod" modules
fi
case $arch in
x86_64) ln -sf arch/x86/boot/bzImage "$out/boot-image" ;;
ppc64le) ln -sf vmlinux "$out/boot-image" ;;
esac
echo "build: $arch${flavour:+ $flavour}: $out/boot-image"
