#!/bin/sh
# perf-defer.sh: deferred user callchains in perf, through the tree's perf
# (perf record --call-graph fp,defer; perf script joins each sample's
# kernel part with its cookie's user part) and through the ring buffer
# alone (perf-defer-raw: the ABI, a task event, a CPU event, a task sampled
# at its exit, a sample in the ioctl that disables its event, events freed
# by the close() their sample deferred). Software events and tracepoints
# only (TCG has no PMU): cpu-clock every 200 us.
# For ustack-deep (8 calls deep; per task and -a), ustack-threads (3
# threads, 4, 7 and 10 calls deep) and ustack-deep32 (a 32-bit task, whose
# samples keep the synchronous walk: the deferred one reads 64-bit frames
# only): every sample of the program has a user part (but after
# exit_mm()); every sample in work() shows work(), its thread's deep()
# frames (as many as the synchronous walk of --call-graph fp shows,
# recorded first as the reference; not checked for a sample in work()'s
# first instructions, before its frame is set up), then main(), thread()
# or _start(), in that order; perf script reports no sample without its
# deferred part; the records are there (--no-merge-callchains). Also:
# every unwind slot taken by tracefs instances (ENOSPC, perf's note and
# fallback), perf trace (walks at once), unordered perf script (a warning).
# Figure: perf-defer task=S/W cpu=S/W threads=S/W compat=S/W sync=S/W
# syncthreads=S/W sync32=S/W records=R nospc=S/W (S samples of the
# program, W of them in work())
command -v perf >/dev/null || exit 77
tmp=/tmp/perf-defer
rm -rf $tmp
mkdir -p $tmp
cd $tmp || exit 1
fail=0
bad() {
	echo "perf-defer: FAIL: $*"
	fail=1
}

# check NAME DATA DEPTHS OFF: the samples of ustack-* in DATA. DEPTHS is
# "all:N" (every thread N calls deep) or a file of "TID DEPTH" lines. A
# sample in work() must show work(), deep() frames, then main(), thread()
# or _start(), in that order, with as many deep() frames as the thread's
# depth plus OFF (inlining makes OFF 0 or 1); OFF "learn": every such
# sample must agree on one OFF, which is printed (the synchronous walk of
# stock perf is the reference).
check() {
	perf script -i "$2" -F comm,tid,ip,sym,symoff,dso >"$1.txt" 2>"$1.err" ||
		{ bad "$1: perf script failed"; cat "$1.err"; return; }
	if grep -q "no deferred user callchain" "$1.err"; then
		bad "$1: $(grep 'no deferred' "$1.err")"
	fi
	r=$(awk -v depths="$3" -v off="$4" '
	BEGIN {
		if (depths ~ /^all:/) { all = substr(depths, 5) + 0 }
		else while ((getline l < depths) > 0) {
			split(l, f, " "); want[f[1]] = f[2]
		}
		learned = ""
	}
	function done() {
		if (!insample) return
		insample = 0; n++
		# (after exit_mm() in do_exit() a sample has no user part at all)
		if (!user && !exiting) { nouser++; if (nouser <= 3) print "no user part: " hdr chain > "/dev/stderr" }
		if (!wk) return
		w++
		if (prologue) { nprologue++; return }
		o = ndeep - (all ? all : want[tid])
		if (off == "learn" && learned == "") learned = o
		if (o != (off == "learn" ? learned : off) || !outer ||
		    wk > firstdeep || lastdeep > outer) {
			wrong++
			if (wrong <= 3) print "wrong chain (" ndeep " deep() frames, depth " (all ? all : want[tid]) "): " hdr chain > "/dev/stderr"
		}
	}
	# a sample: its line, then one tab-indented line per frame
	NF && !/^\t/ { done() }
	NF && !/^\t/ && $1 ~ /^ustack-/ {
		insample = 1; hdr = $0; tid = $2 + 0; i = 0
		user = wk = ndeep = outer = firstdeep = lastdeep = exiting = 0
		prologue = 0
		chain = ""
		next
	}
	insample && /^\t/ && NF >= 2 {
		i++; sym = $2; dso = $NF; chain = chain " " sym
		# work() before its prologue set up its frame (up to 8 bytes
		# in): the walk sees the caller of its caller next, one deep() less
		if (i == 1 && sym ~ /^work(\.[a-z0-9.]+)?\+0x[0-7]$/) prologue = 1
		sub(/\+0x[0-9a-f]+$/, "", sym)
		if (dso !~ /kernel\.kallsyms/) user = 1
		# (gcc may name them work.constprop.0, deep.isra.0, ...)
		if (sym ~ /^work($|\.)/ && !wk) wk = i
		if (sym == "do_exit") exiting = 1
		if (sym ~ /^deep($|\.)/) { ndeep++; if (!firstdeep) firstdeep = i; lastdeep = i }
		if ((sym == "main" || sym == "thread" || sym == "_start") && !outer) outer = i
	}
	END {
		done()
		printf "%d %d %d %d %d %s\n", n, w, nouser, wrong, nprologue, learned
	}
	' "$1.txt" 2>"$1.bad")
	set -- "$1" $r
	cat "$1.bad"
	echo "perf-defer: $1: $2 samples, $3 in work(), $4 without user part," \
		"$5 wrong, $6 in its prologue${7:+, deep() frames = depth + $7}"
	[ "$2" -ge 20 ] && [ "$3" -ge $(($2 / 2)) ] ||
		bad "$1: too few samples ($2, $3 in work())"
	[ "$4" = 0 ] || bad "$1: $4 samples without their user part"
	[ "$5" = 0 ] || bad "$1: $5 samples with a wrong chain"
	eval "fig_$1=$2/$3 off_$1=${7:-}"
}

rec() { # NAME ARGS...: perf record into NAME.data
	name=$1
	shift
	perf record -q -o "$name.data" -e cpu-clock -c 200000 "$@" \
		>"$name.out" 2>"$name.rec" ||
		{ bad "$name: perf record failed"; cat "$name.rec"; }
	if grep -q "no deferred user callchains" "$name.rec"; then
		bad "$name: $(cat "$name.rec")"
	fi
}

# The synchronous chains of stock perf: the reference
rec sync --call-graph fp -- ustack-deep 8 4000
perf evlist -v -i sync.data 2>&1 | grep -q defer_callchain &&
	bad "sync: defer_callchain set without defer"
check sync sync.data all:8 learn
rec syncthr --call-graph fp -- ustack-threads 3 3000 "$tmp/syncthr.map"
check syncthr syncthr.data "$tmp/syncthr.map" learn

# Every deferred unwind slot taken by tracefs instances before perf's
# first deferred event (the first in this boot: else perf holds one and
# only 15 are free): the kernel refuses it with ENOSPC, and perf record
# says so and walks at each sample
t=/sys/kernel/tracing
n=0
while [ $n -lt 17 ] && mkdir $t/instances/pd$n &&
	echo 1 >$t/instances/pd$n/options/userstacktrace_deferred 2>/dev/null; do
	n=$((n + 1))
done
nospc="not run: $n slots were free"
# (a plan that ran perf's deferred events before this test fails here)
[ $n = 16 ] || bad "every slot taken: not run, only $n of 16 slots were free"
if [ $n = 16 ]; then
	nospc=run
	perf-defer-raw nospc || bad "every slot taken: the open did not fail with ENOSPC"
	perf record -o full.data -e cpu-clock -c 200000 \
		--call-graph fp,defer -- ustack-deep 8 4000 >full.out 2>full.rec ||
		bad "every slot taken: perf record failed: $(cat full.rec)"
	grep -q "No deferred unwind slot free" full.rec ||
		bad "every slot taken: perf record did not say so: $(cat full.rec)"
	check full full.data all:8 "${off_sync:-x}"
fi
for d in $t/instances/pd*; do
	echo 0 >$d/options/userstacktrace_deferred 2>/dev/null
	rmdir $d
done
echo "perf-defer: every slot taken: $nospc"

# The ABI without perf's parser
for m in "self 4000" "cpu 4000" "off 2000" exit disable "close 500"; do
	# shellcheck disable=SC2086
	perf-defer-raw $m || bad "perf-defer-raw $m (exit $?)"
done

rec task --call-graph fp,defer -- ustack-deep 8 4000
perf evlist -v -i task.data >task.evlist 2>&1
grep -q "defer_callchain: 1" task.evlist ||
	bad "task: no defer_callchain in the recorded attr: $(cat task.evlist)"
check task task.data all:8 "${off_sync:-x}"
# --no-merge-callchains: each sample with its cookie, each record with
# its own; every sample's cookie has its record
perf script --no-merge-callchains -i task.data >nomerge.out 2>/dev/null
records=$(grep -c CALLCHAIN_DEFERRED nomerge.out)
[ "$records" -ge 1 ] || bad "task: no PERF_RECORD_CALLCHAIN_DEFERRED"
grep -o 'deferred cookie: 0x[0-9a-f]*' nomerge.out | awk '{ print $3 }' |
	sort -u >nomerge.samples
grep -o 'CALLCHAIN_DEFERRED cookie: 0x[0-9a-f]*' nomerge.out |
	awk '{ print $3 }' | sort -u >nomerge.records
[ -s nomerge.samples ] && awk 'NR == FNR { r[$1]; next } !($1 in r) { m++ }
	END { exit m > 0 }' nomerge.records nomerge.samples ||
	bad "--no-merge-callchains: $(wc -l <nomerge.samples) sample cookies, not all among the records' $(wc -l <nomerge.records)"

rec cpu -a --call-graph fp,defer -- ustack-deep 8 4000
check cpu cpu.data all:8 "${off_sync:-x}"

rec threads --call-graph fp,defer -- ustack-threads 3 3000 "$tmp/threads.map"
check threads threads.data "$tmp/threads.map" "${off_syncthr:-x}"

# Tools that cannot join (live perf trace; perf script reading unordered)
# show every sample: perf trace walks at once, perf script shows the
# kernel part, with a warning
perf trace --call-graph fp,defer -e getppid --max-events 2 -- \
	ustack-deep 8 20 >trace.out 2>&1
[ "$(grep -c 'deep (' trace.out)" -ge 16 ] ||
	bad "perf trace --call-graph fp,defer: no user frames: $(head -5 trace.out)"
perf script --show-round-events -i task.data -F comm,ip,sym >unordered.out \
	2>unordered.err
grep -q "not joined" unordered.err ||
	bad "unordered perf script: no warning: $(cat unordered.err)"
[ "$(grep -c '^ *ustack-deep' unordered.out)" = \
	"$(grep -c '^ *ustack-deep' task.txt)" ] ||
	bad "unordered perf script: not every sample shown"

# A 32-bit task: the deferred walk reads 64-bit frames only, so its
# samples keep the synchronous walk, fp,defer or not
if [ "$(uname -m)" = x86_64 ] && ! command -v ustack-deep32 >/dev/null; then
	bad "no ustack-deep32 (the 32-bit case)"
fi
if command -v ustack-deep32 >/dev/null; then
	rec sync32 --call-graph fp -- ustack-deep32
	check sync32 sync32.data all:8 learn
	rec compat --call-graph fp,defer -- ustack-deep32
	check compat compat.data all:8 "${off_sync32:-x}"
fi

ftn-figure perf-defer "task=${fig_task:-} cpu=${fig_cpu:-}" \
	"threads=${fig_threads:-} compat=${fig_compat:-} sync=${fig_sync:-}" \
	"syncthreads=${fig_syncthr:-} sync32=${fig_sync32:-} records=$records" \
	"nospc=${fig_full:-$n}"
exit $fail
