#!/bin/sh
# series-hash.sh: print one hash for a set of numbered patches, ignoring the
# cover letter, so that series/ and an export of build/linux compare equal
# exactly when they hold the same commits.
# Usage: scripts/series-hash.sh DIR
set -eu
cd "$1"
for f in [0-9][0-9][0-9][0-9]-*.patch; do
	case $f in
	0000-cover-letter.patch) ;;
	*) [ -e "$f" ] && { echo "== $f"; cat "$f"; } ;;
	esac
done | sha256sum | cut -d' ' -f1
