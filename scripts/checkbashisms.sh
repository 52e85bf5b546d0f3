#!/bin/sh
# checkbashisms.sh: ftracetest's meta-selftest (test.d/selftest/bashisms.tc)
# run on the host: Debian's checkbashisms (from scripts/guest-tools.sh's
# download) over ftracetest, test.d/functions and every test.d case of
# build/linux, as the case does. The check depends only on the scripts, not
# on the kernel; in a TCG guest its perl took 316 s of a 1025 s x86_64
# suite, so the guests carry no perl and report the case UNRESOLVED
# (expect/). Fails when any script has a possible bashism.
# Usage: scripts/checkbashisms.sh
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/guest-tools.sh" x86_64
cb=$top/build/dl/x86_64/checkbashisms
ft=$top/build/linux/tools/testing/selftests/ftrace
[ -f "$ft/ftracetest" ] || { echo "checkbashisms: no $ft/ftracetest" >&2; exit 1; }
n=0 bad=0
for f in "$ft/ftracetest" "$ft/test.d/functions" \
	$(find "$ft/test.d" -name '*.tc' | sort); do
	n=$((n + 1))
	perl "$cb" "$f" || bad=$((bad + 1))
done
echo "checkbashisms: $n scripts, $bad with possible bashisms"
[ "$bad" -eq 0 ]
