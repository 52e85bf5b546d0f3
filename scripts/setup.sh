#!/bin/sh
# setup.sh: install every host package the workbench needs from Debian and
# check the pinned base tarball (base.pin). Idempotent and quiet when all is
# already there, so every make target may call it first.
# Usage: scripts/setup.sh [PACKAGE...]   (more packages, for make bench)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/base.pin"

pkgs="make gcc libc6-dev git perl flex bison bc cpio xz-utils kmod libelf-dev
zlib1g-dev libssl-dev ccache busybox-static qemu-system-x86 qemu-system-ppc
gcc-powerpc64le-linux-gnu libc6-dev-ppc64el-cross python3-ply python3-git
procps $*"

missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
updated=""
apt_update() {
	[ -n "$updated" ] && return 0
	# A mirror mid-sync fails one index now and then; what we need is
	# usually in the others, and a real miss fails the install below.
	apt-get update -q >/dev/null 2>&1 ||
		echo "setup: warning: apt-get update reported errors" >&2
	updated=1
}
if [ -n "$missing" ]; then
	echo "setup: installing$missing"
	apt_update
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing >/dev/null
fi

# The base: the pinned version if the archive has it, else the candidate
# with a warning that names both.
have=$(dpkg-query -W -f='${Version}' "$PKG" 2>/dev/null || true)
if [ "$have" != "$VERSION" ]; then
	apt_update
	if apt-cache madison "$PKG" | awk '{print $3}' | grep -qx "$VERSION"; then
		echo "setup: installing $PKG=$VERSION"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--allow-downgrades "$PKG=$VERSION" >/dev/null
	else
		cand=$(apt-cache policy "$PKG" | awk '/Candidate:/ {print $2}')
		cat >&2 <<EOF
************************************************************************
setup: WARNING: the archive no longer has $PKG $VERSION (base.pin).
setup: WARNING: using the candidate $PKG $cand instead. The series was
setup: WARNING: made against $VERSION and may not apply; update base.pin.
************************************************************************
EOF
		[ "$have" = "$cand" ] ||
			DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
				"$PKG=$cand" >/dev/null
	fi
	have=$(dpkg-query -W -f='${Version}' "$PKG")
fi

# The hash is checked once per tarball and remembered by its mtime and size,
# because hashing 130 MiB on every make call would cost seconds.
stamp="$top/build/.base-ok"
id=$(stat -c '%s %Y' "$TARBALL")
if [ "$(cat "$stamp" 2>/dev/null)" != "$have $id" ]; then
	sum=$(sha256sum "$TARBALL" | cut -d' ' -f1)
	if [ "$have" = "$VERSION" ] && [ "$sum" != "$SHA256" ]; then
		echo "setup: ERROR: $TARBALL has sha256 $sum," >&2
		echo "setup: ERROR: base.pin says $SHA256 for $VERSION." >&2
		exit 1
	fi
	if [ "$have" != "$VERSION" ]; then
		echo "setup: WARNING: unpinned base $have, sha256 $sum" >&2
	fi
	mkdir -p "$top/build"
	echo "$have $id" >"$stamp"
fi

# Guests run Debian's ppc64el binaries too.
dpkg --print-foreign-architectures | grep -qx ppc64el || {
	dpkg --add-architecture ppc64el
	updated=""
	apt_update
}
exit 0
