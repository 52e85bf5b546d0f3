#!/bin/sh
# check-export.sh: exit non-zero, naming commits and files, when build/linux
# holds work (commits or uncommitted changes to tracked files) that series/
# does not. Quiet and zero when they agree, or when there is no tree.
# Usage: scripts/check-export.sh
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/linux
[ -d "$tree/.git" ] || exit 0
cd "$tree"
rc=0
dirty=$(git status --porcelain)
if [ -n "$dirty" ]; then
	echo "check-export: uncommitted changes or new files in build/linux:"
	echo "$dirty" | sed 's/^/  /'
	rc=1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Two patches are the same change if they differ only in their "n/m".
same() {
	sed 's/^Subject: \[PATCH [0-9]*\/[0-9]*\]/Subject: [PATCH]/' "$1" >"$tmp/a"
	sed 's/^Subject: \[PATCH [0-9]*\/[0-9]*\]/Subject: [PATCH]/' "$2" >"$tmp/b"
	cmp -s "$tmp/a" "$tmp/b"
}
"$top/scripts/export.sh" --patches-only "$tmp"
if [ "$("$top/scripts/series-hash.sh" "$tmp")" != \
     "$("$top/scripts/series-hash.sh" "$top/series")" ]; then
	echo "check-export: build/linux commits differ from series/:"
	for f in "$tmp"/*.patch "$top"/series/[0-9]*.patch; do
		[ -e "$f" ] || continue
		b=$(basename "$f")
		[ "$b" = 0000-cover-letter.patch ] && continue
		if [ ! -e "$tmp/$b" ]; then
			echo "  only in series/: $b"
		elif [ ! -e "$top/series/$b" ]; then
			echo "  not exported: $b ($(sed -n 's/^Subject: //p' "$f" | head -1))"
		elif [ "$f" = "$tmp/$b" ] && ! same "$tmp/$b" "$top/series/$b"; then
			echo "  changed: $b"
		fi
	done
	rc=1
fi
exit $rc
