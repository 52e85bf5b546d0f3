# series.sh: the reduced plan of make test's POWER9 boot: ftracetest's basic
# cases and the cases of the series that meet the powerpc code (the call
# sites, the kprobe trap path, recursion, stack traces and interrupts under
# function_graph, deferred user stacks), and our checks of the powerpc
# back-chain walk (our programs, and Debian's dash in its libc), which here
# sees sc (POWER10 has scv). The other fgraph-*.tc cases run on x86_64
# and POWER10: they test generic code, or are UNSUPPORTED on this config
# (they took 170 s of this boot cold, 2026-11-27). The whole of ftracetest runs on the POWER10 model in
# make test and on both models in make test-full.
. /plans/boottrace.sh
. /plans/ftracetest.sh
. /plans/rundir.sh
ftn_boottrace
cd /ftrace || exit 1
ftn_ftracetest test.d/00basic/*.tc test.d/ftrace/fgraph-stacktrace.tc \
	test.d/ftrace/fgraph-irq-nesting.tc \
	test.d/ftrace/ppc-mflr-*.tc test.d/ftrace/recursed_functions.tc \
	test.d/ftrace/func-migrate.tc \
	test.d/kprobe/kprobe_trap_path.tc \
	test.d/kprobe/kprobe_non_uniq_symbol.tc \
	test.d/dynevent/test_duplicates.tc \
	test.d/event/userstacktrace-deferred*.tc
mkdir -p /tmp/series-ours &&
	cp /tests/ustack-ppc.sh /tests/ustack-libc.sh /tmp/series-ours/ &&
	ftn_run_dir ours /tmp/series-ours
