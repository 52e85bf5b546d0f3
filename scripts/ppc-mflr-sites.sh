#!/bin/sh
# ppc-mflr-sites.sh: count, in a ppc64le vmlinux, the ftrace call sites
# (__start_mcount_loc..__stop_mcount_loc) and how many of them follow an
# "mflr r0". Stock 6.1 never rewrites the mflr, so for it this is also the
# count at run time; make bench uses it where the kernel has no
# powerpc/ftrace_sites. Prints "sites=N mflr=M".
# Usage: scripts/ppc-mflr-sites.sh VMLINUX
set -eu
vmlinux=${1:?usage: ppc-mflr-sites.sh VMLINUX}
od=powerpc64le-linux-gnu-objdump
sym() { powerpc64le-linux-gnu-nm "$vmlinux" | awk -v s="$1" '$3 == s { print "0x" $1 }'; }
start=$(sym __start_mcount_loc) stop=$(sym __stop_mcount_loc)
[ -n "$start" ] && [ -n "$stop" ] || {
	echo "ppc-mflr-sites: no __mcount_loc in $vmlinux" >&2
	exit 1
}
# Kernel text lies below 4 GiB of its base, so the low 32 bits of an
# address identify it and stay exact in awk's doubles.
{
	# Every mflr r0 (7c0802a6) in the text, first: the count needs them.
	$od -d --no-show-raw-insn "$vmlinux" |
		awk '$2 == "mflr" && $3 == "r0" { sub(":", "", $1)
			print "mflr", substr($1, length($1) - 7) }'
	# The call sites: 64-bit little-endian words; objdump prints four
	# bytes per group, in memory order, so the low half comes first.
	$od -s -j .init.data --start-address="$start" --stop-address="$stop" \
		"$vmlinux" |
		awk '/^ [0-9a-f]+ / { for (i = 2; i <= 5; i++) if ($i ~ /^[0-9a-f]+$/ && length($i) == 8) print $i }' |
		paste -d ' ' - - | awk '{ v = ""
			for (i = 7; i >= 1; i -= 2) v = v substr($1, i, 2)
			print "site", v }'
} | awk '
	function hex(s,  i, n) { n = 0; for (i = 1; i <= length(s); i++)
		n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return n }
	$1 == "mflr" { m[hex($2)] = 1; next }
	{ sites++; if ((hex($2) - 4) in m) mflr++ }
	END { printf "sites=%d mflr=%d\n", sites, mflr }'
