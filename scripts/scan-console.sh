#!/bin/sh
# scan-console.sh: fail when a guest console log holds a kernel report that
# no test may cause: panic, oops, BUG, WARN, lockdep, KASAN, UBSAN, RCU
# stall, soft lockup, hung task, list corruption, an ftrace bug. Only kernel
# lines (printk timestamp) are matched, so test output cannot trip it.
# Prints each report with the lines that follow it.
# Usage: scripts/scan-console.sh CONSOLE_LOG
set -eu
log=${1:?usage: scan-console.sh LOG}
pat='Kernel panic|BUG:|kernel BUG at|WARNING:|Oops|Unable to handle kernel'
pat="$pat|general protection fault|cut here|ftrace bug|ftrace faulted"
pat="$pat|possible circular locking|possible recursive locking"
pat="$pat|inconsistent lock state|suspicious RCU usage|DEBUG_LOCKS_WARN_ON"
pat="$pat|KASAN:|UBSAN:|detected stall|self-detected stall|soft lockup"
pat="$pat|blocked for more than|list_add corruption|list_del corruption"
pat="$pat|Bad page state|refcount_t:|kfence:|BUG kmalloc"
hits=$(grep -naE "\[ *[0-9]+\.[0-9]+\] .*($pat)" "$log" | head -20 || true)
[ -z "$hits" ] && exit 0
echo "scan-console: kernel reports in $log:" >&2
first=$(echo "$hits" | head -1 | cut -d: -f1)
echo "$hits" | sed 's/^/  ! /' >&2
echo "scan-console: context of the first:" >&2
sed -n "$((first > 5 ? first - 5 : 1)),$((first + 40))p" "$log" |
	sed 's/^/  | /' >&2
exit 1
