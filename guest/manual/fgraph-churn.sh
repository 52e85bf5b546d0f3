# fgraph-churn.sh: ROUNDS times (default 60), remove the oldest of three
# tracefs instances and create a new one running function_graph with two
# functions drawn at random from a pool that the workloads below call, so
# that fgraph slots change hands while frames of their previous users are
# still on the tasks' shadow stacks (sleepers sleep inside do_nanosleep()
# across the removal of the instance that hooked it). Workloads: a
# fork+exec loop, two sleep loops, a read loop. Checks, per instance
# before its removal: it traced something, and only the two functions
# its filter selected (the function_graph return line names its function,
# funcgraph-tail: a return delivered to the wrong user would show up as
# a function of another filter). Splats fail the boot through the console
# scan. Reports rounds, instances checked, lines read and bad lines.
# Not in make test yet (its time on 4 vCPUs under TCG is not measured);
# run it by hand as a plan, on the debug kernel for lockdep and KASAN:
#   FLAVOUR=debug SMP=4 scripts/run.sh x86_64 guest/manual/fgraph-churn.sh
t=/sys/kernel/tracing
rounds=${ROUNDS:-60}
pool=""
for f in do_nanosleep hrtimer_nanosleep __x64_sys_clock_nanosleep \
	kernel_clone __x64_sys_execve do_exit ksys_read vfs_read \
	__x64_sys_wait4 do_wait; do
	grep -qx "$f" $t/available_filter_functions && pool="$pool $f"
done
# shellcheck disable=SC2086
set -- $pool
npool=$#
if [ "$npool" -lt 4 ]; then
	echo "fgraph-churn: only $npool pool functions traceable:$pool"
	exit 1
fi
pick() { # the Nth word of the pool, N from 1
	n=$1
	# shellcheck disable=SC2086
	set -- $pool
	shift $((n - 1))
	echo "$1"
}
# A per-boot seed, so that runs differ but a console shows what ran
seed=$(($(date +%s) % 32768))
echo "fgraph-churn: seed $seed"
rnd() { # a number from 1 to $1
	seed=$(((seed * 1103515245 + 12345) % 2147483648))
	echo $(((seed / 65536) % $1 + 1))
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
	a=$(pick "$(rnd "$npool")")
	b=$(pick "$(rnd "$npool")")
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
ftn-figure fgraph-churn "seed=$seed rounds=$rounds instances_checked=$checked lines=$lines bad=$bad failed_writes=$failed"
[ "$bad" -eq 0 ] && [ "$failed" -eq 0 ] && [ "$checked" -eq "$rounds" ]
