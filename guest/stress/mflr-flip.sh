# mflr-flip.sh: turn function and function_graph on and off ROUNDS times
# each on the functions a read() loop runs, plus FULL times on every
# function (defaults: 200 and 2 on powerpc, whose two-phase patching this
# is about; 10 and 0 elsewhere, where each flip of text_poke_bp() under
# single-threaded TCG takes about a second), while one such loop per CPU
# keeps every CPU busy in preemptible kernel code. On powerpc this races
# the two-phase patching of "mflr r0; bl" (a task preempted between the
# two must never meet a bl without its mflr); there, powerpc/ftrace_sites
# is read every 20 rounds and at the end and must report no bad site,
# and in nop;nop mode every 50 rounds the flips pause until the idle
# pass has nopped the untraced mflrs out (at most 30 s), so that the
# next flip enables from nop;nop, the transition that needs a grace
# period, with the loops running.
# Everywhere, a crash or a splat fails the boot. Reports transitions and
# checks done.
t=/sys/kernel/tracing
sites=/sys/kernel/debug/powerpc/ftrace_sites
case $(uname -m) in
ppc64*)
	# The checker is the point here: without it this would prove nothing
	[ -f $sites ] || { echo "no $sites"; exit 1; }
	rounds=${ROUNDS:-200} full=${FULL:-2}
	;;
*)
	rounds=${ROUNDS:-10} full=${FULL:-0}
	;;
esac
pids=""
for c in $(seq "$(nproc)"); do
	(while :; do read -r x </proc/self/stat; done) &
	pids="$pids $!"
done
trans=0 checks=0 bad=0
check() {
	[ -f $sites ] || return 0
	checks=$((checks + 1))
	b=$(sed -n 's/^bad //p' $sites)
	[ "$b" = 0 ] && return 0
	echo "ftrace_sites: $b bad sites after $trans transitions:"
	grep '^bad ' $sites | head -n 5
	bad=$((bad + 1))
}
field() { # name: the number on the line "name N" of $sites, 0 if none
	v=$(sed -n "s/^$1 //p" $sites 2>/dev/null)
	echo "${v:-0}"
}
idle_waits=0
idle() { # wait for the next idle pass, in nop;nop mode
	grep -qx 'untraced nop;nop' $sites 2>/dev/null || return 0
	p=$(field idle_passes) w=0
	while [ "$(field idle_passes)" = "$p" ]; do
		w=$((w + 1))
		[ $w -le 30 ] || { echo "no idle pass in 30 s"; bad=$((bad + 1)); return; }
		sleep 1
	done
	idle_waits=$((idle_waits + 1))
}
flip() { # tracer
	echo "$1" >$t/current_tracer && echo nop >$t/current_tracer &&
		trans=$((trans + 2))
}
p0=$(field prepares)
echo 'vfs_read ksys_read *sys_read __fdget_pos rw_verify_area' \
	>$t/set_ftrace_filter || exit 1
for r in $(seq "$rounds"); do
	flip function
	flip function_graph
	[ $((r % 20)) = 0 ] && check
	[ $((r % 50)) = 0 ] && idle
done
echo >$t/set_ftrace_filter
for r in $(seq "$full"); do
	flip function
	flip function_graph
	check
done
kill $pids
ftn-figure mflr-flip "rounds=$rounds full=$full transitions=$trans site_checks=$checks bad_checks=$bad idle_waits=$idle_waits prepares=$(($(field prepares) - p0))"
# In nop;nop mode each pause made the next flip prepare again (the
# first flip may not: an earlier script can leave the sites ready)
if grep -qx 'untraced nop;nop' $sites 2>/dev/null &&
	[ $(($(field prepares) - p0)) -lt $idle_waits ]; then
	echo "$(($(field prepares) - p0)) prepare passes for $idle_waits idle pauses"
	bad=$((bad + 1))
fi
[ $bad = 0 ] && [ $trans = $((4 * (rounds + full))) ]
