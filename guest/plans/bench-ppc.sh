# bench-ppc.sh: the ppc64le part of make bench. Times "echo function >
# current_tracer" and back (tracer-latency, 5 rounds) and reports the
# call sites by instruction pair (powerpc/ftrace_sites) untraced:
#   FTN-BENCH enable v1 ...   FTN-BENCH disable v1 ...   (ns, sorted)
#   FTN-BENCH sites <the ftrace_sites lines, joined by commas>
msg() { echo "$*"; echo "$*" >&3; }
s=/sys/kernel/debug/powerpc/ftrace_sites
tracer-latency function 5 >/tmp/lat || exit 1
msg "FTN-BENCH enable $(cut -d' ' -f1 /tmp/lat | sort -n | tr '\n' ' ')"
msg "FTN-BENCH disable $(cut -d' ' -f2 /tmp/lat | sort -n | tr '\n' ' ')"
[ -f $s ] && msg "FTN-BENCH sites $(tr '\n' ',' <$s)"
exit 0
