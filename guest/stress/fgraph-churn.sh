# fgraph-churn.sh: CHURN_ROUNDS times (default 6), remove the oldest of
# three tracefs instances and create a new one running function_graph,
# so that fgraph slots change hands while frames of their previous users
# are still on the tasks' shadow stacks. Each instance's filter is one
# function that tasks sleep in (do_nanosleep, hrtimer_nanosleep,
# kernel_wait4, do_wait: the two sleep loops' usleep, and every loop's
# shell waiting for its child) and one drawn at random from functions
# the workloads run through. The sleeper goes round a list of four while
# the instances go round a ring of three, so an instance's slot goes to
# a user with another sleeper: a return delivered to the new user for a
# task that slept across the removal names a function outside its
# filter. Workloads: a fork+exec loop, two sleep loops, a read loop.
# Checks, per instance before its removal: it traced something, and only
# the two functions of its filter (the function_graph return line names
# its function, funcgraph-tail). Splats fail the boot through the
# console scan. Reports rounds, instances checked, lines read, bad lines.
# CHURN_ROUNDS comes from the kernel command line; make test sets it per
# boot (scripts/test.sh; 0: not run, exit 77). Longer runs by hand:
#   APPEND=CHURN_ROUNDS=60 FLAVOUR=debug SMP=4 \
#	scripts/run.sh x86_64 guest/plans/debug.sh
t=/sys/kernel/tracing
rounds=${CHURN_ROUNDS:-6}
if [ "$rounds" -eq 0 ]; then
	echo "fgraph-churn: CHURN_ROUNDS=0: not run in this boot"
	exit 77
fi
traceable() { grep -qx "$1" $t/available_filter_functions; }
sleepers="do_nanosleep hrtimer_nanosleep kernel_wait4 do_wait"
for f in $sleepers; do
	traceable "$f" || {
		echo "fgraph-churn: sleeper $f is not traceable"
		exit 1
	}
done
pool=""
for f in kernel_clone __x64_sys_execve do_exit ksys_read vfs_read \
	sys_execve __do_sys_execve do_execveat_common; do
	traceable "$f" && pool="$pool $f"
done
# shellcheck disable=SC2086
set -- $pool
npool=$#
if [ "$npool" -lt 3 ]; then
	echo "fgraph-churn: only $npool pool functions traceable:$pool"
	exit 1
fi
nth() { # N WORDS...: the Nth of the words, N from 1
	n=$1
	shift
	shift $((n - 1))
	echo "$1"
}
# A per-boot seed, so that runs differ but a console shows what ran
seed=$(($(date +%s) % 32768))
seed0=$seed
echo "fgraph-churn: seed $seed"
rnd() { # R = a number from 1 to $1 (not in a subshell: seed moves on)
	seed=$(((seed * 1103515245 + 12345) % 2147483648))
	R=$(((seed / 65536) % $1 + 1))
}

(while :; do /bin/true; done) &
w1=$!
(while :; do usleep 30000; done) &
w2=$!
(while :; do usleep 70000; done) &
w3=$!
(while :; do cat /proc/self/stat >/dev/null; done) &
w4=$!

checked=0 lines=0 bad=0 failed=0
check() { # instance: stop it, check its trace, remove it
	d=$t/instances/$1
	[ -d "$d" ] || return 0
	echo 0 >"$d/tracing_on"
	f=$(tr '\n' ' ' <"$d/set_ftrace_filter")
	n=$(grep -c '[|]' "$d/trace")
	# Function names on entry lines "f() {" / "f();" and return lines
	# "} /* f */"
	names=$(sed -n -e 's/.*[|] *\([A-Za-z0-9_.]*\)().*/\1/p' \
		-e 's/.*} \/\* \([A-Za-z0-9_.]*\) \*\/.*/\1/p' "$d/trace" |
		sort -u)
	for nm in $names; do
		case " $f" in
		*" $nm "*) ;;
		*)
			echo "fgraph-churn: $1 (filter: $f) traced $nm"
			bad=$((bad + 1))
			;;
		esac
	done
	if [ "$n" -eq 0 ]; then
		echo "fgraph-churn: $1 (filter: $f) traced nothing"
		bad=$((bad + 1))
	elif [ -z "$names" ]; then
		# Else a changed output format would pass the check above
		echo "fgraph-churn: $1: $n lines, no function name read"
		bad=$((bad + 1))
	fi
	lines=$((lines + n))
	checked=$((checked + 1))
	echo nop >"$d/current_tracer" || failed=$((failed + 1))
	rmdir "$d" || failed=$((failed + 1))
}

for r in $(seq "$rounds"); do
	i=$((r % 3))
	check churn$i
	d=$t/instances/churn$i
	mkdir "$d" || { failed=$((failed + 1)); continue; }
	# shellcheck disable=SC2086
	a=$(nth $((r % 4 + 1)) $sleepers)
	rnd "$npool"
	# shellcheck disable=SC2086
	b=$(nth "$R" $pool)
	# An empty filter would trace every function
	if [ -z "$a" ] || [ -z "$b" ]; then
		echo "fgraph-churn: no function drawn ($a, $b)"
		exit 1
	fi
	echo "$a $b" >"$d/set_ftrace_filter" || failed=$((failed + 1))
	echo 1 >"$d/options/funcgraph-tail" || failed=$((failed + 1))
	echo function_graph >"$d/current_tracer" || failed=$((failed + 1))
	usleep 100000
done
for i in 0 1 2; do
	check churn$i
done
kill $w1 $w2 $w3 $w4
wait 2>/dev/null
ftn-figure fgraph-churn "seed=$seed0 rounds=$rounds instances_checked=$checked lines=$lines bad=$bad failed_writes=$failed"
[ "$bad" -eq 0 ] && [ "$failed" -eq 0 ] && [ "$checked" -eq "$rounds" ]
