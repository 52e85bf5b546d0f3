#!/bin/sh
# tree.sh: make build/linux a git tree of the pinned base plus series/.
# The first run unpacks the tarball into one commit tagged "base"; later runs
# reset to base and git am the series again, but only when the tree holds no
# work that series/ lacks. The hash of the series last applied or exported
# is kept in .git/ftrace-next-series to tell "series/ moved on" (re-apply)
# from "the tree moved on" (refuse: export first).
# Usage: scripts/tree.sh [--force | --lenient]
#   --force discards unexported work; --lenient keeps it and says so (for
#   building and booting work in progress).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/base.pin"
tree=$top/build/linux
force="" lenient=""
[ "${1:-}" = "--force" ] && force=1
[ "${1:-}" = "--lenient" ] && lenient=1

# Debian's top-level .gitignore ignores everything ("/*"), which would hide
# every file a patch adds. Drop that rule in the work tree only: the base
# commit keeps the pristine file and skip-worktree keeps git from seeing or
# restoring the local edit.
unhide_new_files() {
	git update-index --no-skip-worktree .gitignore
	git checkout -q -- .gitignore
	sed -i -e '/^\/\*$/d' -e '/^!\/debian\/$/d' .gitignore
	git update-index --skip-worktree .gitignore
}

apply_series() {
	cd "$tree"
	git update-index --no-skip-worktree .gitignore
	[ -d .git/rebase-apply ] && git am --abort
	git reset -q --hard base
	git clean -qfdx
	set -- "$top"/series/[0-9][0-9][0-9][0-9]-*.patch
	pat=""
	for f; do
		case $f in
		*/0000-cover-letter.patch) ;;
		*) [ -e "$f" ] && pat="$pat $f" ;;
		esac
	done
	if [ -n "$pat" ]; then
		# shellcheck disable=SC2086
		git am -q --committer-date-is-author-date $pat || {
			echo "tree: the series does not apply to the base" >&2
			git am --abort
			exit 1
		}
	fi
	unhide_new_files
	"$top/scripts/series-hash.sh" "$top/series" >.git/ftrace-next-series
	echo "tree: build/linux = base + $(git rev-list --count base..HEAD) patches"
}

if [ ! -d "$tree/.git" ]; then
	echo "tree: unpacking $(basename "$TARBALL") ($VERSION) into build/linux"
	rm -rf "$tree" && mkdir -p "$tree"
	tar -xJf "$TARBALL" -C "$tree" --strip-components=1
	cd "$tree"
	git init -q -b base-only
	git config core.autocrlf false
	git config gc.auto 0
	# A fixed identity and date make the base commit the same everywhere.
	export GIT_AUTHOR_NAME="Debian $PKG" GIT_AUTHOR_EMAIL=nobody@debian.invalid
	export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME"
	export GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
	export GIT_AUTHOR_DATE="2000-01-01T00:00:00Z"
	export GIT_COMMITTER_DATE="$GIT_AUTHOR_DATE"
	git add -A -f .
	git commit -q -m "Debian $PKG $VERSION" -m "sha256 $SHA256"
	git tag base
	git checkout -q -b series
	apply_series
	exit 0
fi

cd "$tree"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# (a shell killed by a signal runs no EXIT trap: make test's ^C)
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
"$top/scripts/export.sh" --patches-only "$tmp"
cur=$("$top/scripts/series-hash.sh" "$tmp")
want=$("$top/scripts/series-hash.sh" "$top/series")
last=$(cat .git/ftrace-next-series 2>/dev/null || true)
dirty=$(git status --porcelain | head -5)

if [ -z "$dirty" ] && [ "$cur" = "$want" ]; then
	echo "$want" >.git/ftrace-next-series
	exit 0
fi
if [ -n "$force" ] || { [ -z "$dirty" ] && [ "$cur" = "$last" ]; }; then
	apply_series
	exit 0
fi
if [ -n "$lenient" ]; then
	echo "tree: note: building build/linux as it is, with unexported work" >&2
	exit 0
fi
echo "tree: build/linux holds work that series/ lacks:" >&2
"$top/scripts/check-export.sh" >&2 || true
echo "tree: run 'make export' first, or 'make tree FORCE=1' to drop it" >&2
exit 1
