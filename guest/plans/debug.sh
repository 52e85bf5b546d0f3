# debug.sh: the debug lane's plan (make test, x86_64 debug kernel: lockdep,
# KASAN, UBSAN, ...): the verdicts of the boot-time tracer selftests, the
# ftracetest cases of the series, perf's deferred callchains (use after
# free of a closed event, an exiting task) and the stress tests. Splats
# fail the boot
# through the console scan, whatever this plan reports.
. /plans/ftracetest.sh
. /plans/rundir.sh
. /plans/selftests.sh
ftn_startup_selftests
ftn_ftracetest test.d/ftrace/recursed_functions.tc \
	test.d/ftrace/func-migrate.tc \
	test.d/ftrace/fgraph-push-window.tc \
	test.d/ftrace/fgraph-tail-call.tc \
	test.d/event/userstacktrace-deferred.tc \
	test.d/event/userstacktrace-deferred-exit.tc
mkdir -p /tmp/debug-ours && cp /tests/perf-defer.sh /tmp/debug-ours/ &&
	ftn_run_dir ours /tmp/debug-ours
ftn_run_dir stress /stress
