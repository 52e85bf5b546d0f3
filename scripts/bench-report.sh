#!/bin/sh
# bench-report.sh: turn the FTN-BENCH lines of make bench's boots
# (DIR/KERNEL.results) into DIR/results.md (median and range per case, the
# cost of one fgraph user and of each extra one) and DIR/results.png (ns
# per getppid() against the number of users, one line per kernel). Fails
# when a benchmark user missed calls it should have seen.
# The ppc64le section comes from DIR/ppc64le-KERNEL.results, when present.
# Usage: scripts/bench-report.sh DIR   (env KERNELS, PPC_KERNELS, as
#        scripts/bench.sh)
set -eu
dir=${1:?usage: bench-report.sh DIR}
kernels=${KERNELS-series stock-6.1 stock-6.12}
ppc_kernels=${PPC_KERNELS-series series-mflr-off stock-6.1}
md=$dir/results.md
bad=0

# stats KIND N KERNEL: "median min max" of one case, or "refused", or ""
stats() {
	sed -n "s/^FTN-BENCH $1 $2 //p" "$dir/$3.results" 2>/dev/null |
		awk 'NR == 1 && $1 == "refused" { print "refused"; exit }
		NR == 1 { n = NF; m = n % 2 ? $((n + 1) / 2) : ($(n / 2) + $(n / 2 + 1)) / 2
			printf "%.0f %.0f %.0f\n", m, $1, $n; exit }'
}
cell() { # "median min max" -> table cell
	case $1 in
	"") echo "-" ;;
	refused) echo "refused" ;;
	*) set -- $1; echo "$1 [$2-$3]" ;;
	esac
}
med() { set -- $1 ""; echo "$1"; }
ps_ns() { # picoseconds -> nanoseconds, one decimal
	awk -v p="$1" 'BEGIN { printf "%.1f", p / 1000 }'
}

# The ppc64le table, from DIR/ppc64le-KERNEL.results.
ppc_section() {
	echo
	echo "## ppc64le: the function tracer on and off, and the sites that run mflr"
	echo
	echo "QEMU pseries, POWER10 model, 2 vCPUs, TCG, wall time (-icount hangs"
	echo "this guest at boot: noisier than the x86_64 figures). Microseconds"
	echo "per write to current_tracer, median of 7 and [min-max]. Sites: the"
	echo "call sites that hold an mflr r0, tracer off / on / idle again, out of"
	echo "all. First: function from the idle state (the series' idle pass has"
	echo "nopped every untraced mflr; stock: after a pause), median of 5 and"
	echo "[min-max] (us). Kprobes: the attach of N kprobe events one at a time"
	echo "from the idle state, median of 3 and [min-max] (ms)."
	echo
	echo "| kernel | function on (us) | nop again (us) | first (us) | kprobes | mflr sites, tracer off | tracer on | idle | vmlinux scan |"
	echo "|---|---|---|---|---|---|---|---|---|"
	for k in $ppc_kernels; do
		r=$dir/ppc64le-$k.results
		row="| $k | $(cell "$(stats ppc on "ppc64le-$k")") | $(cell "$(stats ppc off "ppc64le-$k")")"
		row="$row | $(cell "$(stats ppc first "ppc64le-$k")")"
		v=$(sed -n "s/^FTN-BENCH ppc kprobes-n n=\([0-9]*\) .*/\1/p" "$r" 2>/dev/null)
		row="$row | $(cell "$(stats ppc kprobes-ms "ppc64le-$k")") for ${v:--}"
		for st in off on idle; do
			v=$(sed -n "s/^FTN-BENCH sites $st //p" "$r" 2>/dev/null)
			case $v in
			*nochecker*) v="${v%% *} (no checker)" ;;
			sites=*) set -- $v; v="${2#mflr=} of ${1#sites=}" ;;
			*) v=- ;;
			esac
			row="$row | $v"
		done
		v=$(sed -n "s/^FTN-BENCH scan //p" "$r" 2>/dev/null)
		row="$row | ${v:--} |"
		echo "$row"
	done
	echo
	echo "series-mflr-off: the series booted with ppc_ftrace_nop_mflr=off (stock"
	echo "patching, same kernel). vmlinux scan: scripts/ppc-mflr-sites.sh, the"
	echo "__mcount_loc sites in the image (init code included) that follow an"
	echo "mflr r0; stock 6.1 never rewrites an mflr, so for it that share holds"
	echo "at run time too."
}

# complete "stacks=S full=F frames=N [lost=L]" (or samples=S ...): a table
# cell "F of S (N/S)[, lost L]"; "refused" stays; anything else is "-"
complete() {
	case $1 in
	refused) echo refused ;;
	*=*" full="*" frames="*)
		set -- $1
		d=${1#*=}
		[ "$d" -gt 0 ] || d=1
		echo "${2#full=} of ${1#*=} ($((${3#frames=} / d)))${4:+, lost ${4#lost=}}"
		;;
	*) echo - ;;
	esac
}

# The user stack table of one arch, from the ustack, ucold, ulibc and
# ureq lines: ustack_section TITLE PREFIX KERNELS UNIT (results in
# DIR/PREFIXKERNEL.results; UNIT says what a figure counts)
ustack_section() {
	title=$1 pre=$2 ks=$3 unit=$4
	echo
	echo "## User stacks, $title: a getppid() event per call, 32 frames deep"
	echo
	echo "| kernel | event alone | + userstacktrace (sync) | + userstacktrace_deferred | cold, sync: complete of stacks (frames each) | cold, deferred: complete of stacks (frames each) | dash in libc: frames (dash's) |"
	echo "|---|---|---|---|---|---|---|"
	for k in $ks; do
		row="| $k"
		for kind in event sync deferred; do
			row="$row | $(cell "$(stats ustack $kind "$pre$k")")"
		done
		for kind in sync deferred; do
			v=$(sed -n "s/^FTN-BENCH ucold $kind //p" "$dir/$pre$k.results" 2>/dev/null)
			row="$row | $(complete "$v")"
		done
		# ulibc: ustack-libc.sh's figure (depth0=F dash0=D ...)
		v=$(sed -n "s/^FTN-BENCH ulibc //p" "$dir/$pre$k.results" 2>/dev/null)
		case $v in
		*depth0=*)
			f=${v#*depth0=} d=${v#*dash0=}
			v="${f%% *} (${d%% *})" ;;
		*) v=- ;;
		esac
		echo "$row | $v |"
	done
	echo
	echo "$unit"
	echo
	echo "ustack-bench: ns per getppid() with its sys_enter event enabled, 32"
	echo "frames deep. sync: userstacktrace, read in the event, at most 8"
	echo "entries, no page faults. deferred: the series' option, walked once"
	echo "at the return to user space, at most 128 entries, faults allowed."
	echo "Cold: 200 calls with the callers' stack pages unmapped from the page"
	echo "tables before each (a shared mapping, contents kept); complete means"
	echo "8 entries for sync, 34 for deferred (the ip, 32 frames of deep(),"
	echo "the two below). Dash in libc: guest/tests/ustack-libc.sh, the"
	echo "deferred stack of Debian's dash in its read builtin, in libc's"
	echo "read() (both built without frame pointers): frames in all, and"
	echo "how many of them in dash."
	echo
	echo "perf, the same loop with a perf event of the task sampling each"
	echo "getppid() with its callchain (tracepoint, period 1; no ftrace event):"
	echo "ns per call; then, warm and cold, complete callchains of samples"
	echo "(user entries each), lost records. sync: the user part walked in the"
	echo "sample (no page faults); defer: attr.defer_callchain (the series:"
	echo "patches 59-61), walked at the return to user space."
	echo
	echo "| kernel | no perf | + sync | + defer | warm sync | warm defer | cold sync | cold defer |"
	echo "|---|---|---|---|---|---|---|---|"
	for k in $ks; do
		row="| $k"
		for kind in none sync defer; do
			row="$row | $(cell "$(stats pstack $kind "$pre$k")")"
		done
		for w in pwarm pcold; do
			for kind in sync defer; do
				v=$(sed -n "s/^FTN-BENCH $w $kind //p" "$dir/$pre$k.results" 2>/dev/null)
				row="$row | $(complete "$v")"
			done
		done
		# (stock kernels refuse defer: no pwarm/pcold line then)
		echo "$row |"
	done
	if grep -q '^FTN-BENCH ureq ' "$dir/${pre}series.results" 2>/dev/null; then
		echo
		echo "Request path (series, test_unwind_deferred \"bench 10000\" and"
		echo "\"benchnmi 10000\"), ns per unwind_user_deferred() call:"
		echo "first: an entry's first request (cookie, task work or, in NMI,"
		echo "the self-interrupt; no NMI on ppc64le under TCG); pending: the"
		echo "callback already asked for."
		echo
		echo "| context | first | pending |"
		echo "|---|---|---|"
		sed -n 's/^FTN-BENCH ureq //p' "$dir/${pre}series.results" |
			while read -r ctx a b; do
				case $a in
				refused) echo "| $ctx | refused | refused |" ;;
				*) echo "| $ctx | $(ps_ns "${b#first=}") | $(ps_ns "${a#pending=}") |" ;;
				esac
			done
	fi
}

{
	echo "# make bench: $(date -u +%Y-%m-%d)"
	echo
	echo "x86_64 guest, 1 vCPU, QEMU TCG with \`-icount shift=0,sleep=off\`:"
	echo "every figure is virtual time, 1 ns per guest instruction, so it"
	echo "counts instructions and does not move with the host's load."
	echo "ns per getppid() call; median of 5 runs and [min-max]."
	echo "Kernels: $(for k in $kernels; do
		printf '%s ' "$k ($(sed -n 's/^FTN-BOOT \([^ ]*\).*/\1/p' \
			"$dir/$k.results" 2>/dev/null))"; done)"
	echo
	echo "## fgraph core: K users with trivial callbacks, filtered to getppid (*sys_getppid: __do_sys_getppid and its alias __x64_sys_getppid, one function)"
	echo
	echo "| kernel | K=0 | K=1 | K=2 | K=4 | K=8 | K=16 | one user | each extra user | one user, timed |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	for k in $kernels; do
		row="| $k"
		for u in 0 1 2 4 8 16; do
			row="$row | $(cell "$(stats core $u "$k")")"
		done
		z=$(med "$(stats core 0 "$k")")
		one=$(med "$(stats core 1 "$k")")
		last="" lastu=""
		for u in 2 4 8 16; do
			v=$(med "$(stats core $u "$k")")
			case $v in "" | refused) ;; *) last=$v lastu=$u ;; esac
		done
		timed=$(med "$(stats coretime 1 "$k")")
		c1=- ce=- ct=-
		case "$z$one" in *refused* | "") ;;
		*) c1=$((one - z)) ;; esac
		[ -n "$last" ] && [ "$c1" != - ] &&
			ce=$(((last - one) / (lastu - 1)))
		case "$z$timed" in *refused* | "") ;;
		*) ct=$((timed - z)) ;; esac
		echo "$row | $c1 | $ce | $ct |"
	done
	echo
	echo "one user: K=1 minus K=0. Each extra user: (K=max - K=1) / (max - 1)"
	echo "over the largest K the kernel accepts. One user, timed: the same"
	echo "user asking for the entry and return times (the series'"
	echo "FGRAPH_OPS_TIME, as the tracers do) minus K=0; the stock kernels"
	echo "always read them, so there it is K=1 again. Stock 6.1 refuses a"
	echo "second user; its one user follows the global filter (set_ftrace_filter)."
	echo
	echo "## function_graph on every function in N tracefs instances (1 MiB buffers)"
	echo
	echo "| kernel | off | N=1 | N=2 | N=4 |"
	echo "|---|---|---|---|---|"
	for k in $kernels; do
		row="| $k"
		for n in 0 1 2 4; do
			row="$row | $(cell "$(stats graph $n "$k")")"
		done
		echo "$row |"
	done
	echo
	echo "N=1 is the top level; N=2 and N=4 add instances. Stock 6.1 refuses"
	echo "function_graph in an instance."
	[ -z "$kernels" ] ||
		ustack_section x86_64 "" "$kernels" "x86_64: ns of virtual time (instructions), as above."
	[ -z "$ppc_kernels" ] || ppc_section
	[ -z "$ppc_kernels" ] ||
		ustack_section "ppc64le (POWER10 model)" ppc64le- "$ppc_kernels" \
			"ppc64le: wall time under TCG (no -icount), 2 vCPUs: not comparable with the x86_64 figures, only between ppc64le kernels."
} >"$md"

# Every user must have seen every call: else a figure measured nothing.
for k in $kernels; do
	sed -n 's/^FTN-BENCH check core //p' "$dir/$k.results" 2>/dev/null |
		while read -r u c e r; do
			c=${c#calls=} e=${e#entries=} r=${r#returns=}
			if [ "$e" -lt $((u * c)) ] || [ "$r" -lt $((u * c)) ]; then
				echo "bench-report: $k K=$u: $e entries, $r returns, want $((u * c)) each"
				exit 1
			fi
		done || bad=1
done

# The plot: median ns per call against users, both benchmarks.
dat=$dir/results.dat
: >"$dat"
for kind in core graph; do
	for k in $kernels; do
		echo "# $kind $k" >>"$dat"
		for u in 0 1 2 4 8 16; do
			v=$(med "$(stats $kind $u "$k")")
			case $v in "" | refused) ;; *) echo "$u $v" >>"$dat" ;; esac
		done
		printf '\n\n' >>"$dat"
	done
done
if command -v gnuplot >/dev/null && [ -n "$kernels" ]; then
	i=0 core="" graph=""
	for k in $kernels; do
		core="$core${core:+, }'$dat' index $i with linespoints title '$k'"
		graph="$graph${graph:+, }'$dat' index $((i + $(echo $kernels | wc -w))) with linespoints title '$k'"
		i=$((i + 1))
	done
	gnuplot <<GP
set terminal pngcairo size 1200,500 noenhanced
set output '$dir/results.png'
set multiplot layout 1,2
set key top left
set grid
set xlabel 'function-graph users'
set ylabel 'ns per getppid() (icount)'
set title 'fgraph core: K users on one function'
plot $core
set xlabel 'instances running function_graph (all functions)'
set title 'function_graph in N instances'
plot $graph
unset multiplot
GP
	echo "bench-report: $dir/results.png"
fi
echo "bench-report: $md"
cat "$md"
exit $bad
