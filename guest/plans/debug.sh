# debug.sh: the debug lane's plan (make test, x86_64 debug kernel: lockdep,
# KASAN, UBSAN, ...): the verdicts of the boot-time tracer selftests, the
# ftracetest cases of the series and the stress tests. Splats fail the boot
# through the console scan, whatever this plan reports.
. /plans/ftracetest.sh
. /plans/rundir.sh
passed=$(dmesg | grep -c 'Testing tracer .*: PASSED')
failed=$(dmesg | grep -c 'Testing tracer .*: FAILED')
dmesg | grep 'Testing tracer ' | sed 's/^\[[^]]*\] /  /'
ftn-figure startup-selftests "tracers passed=$passed failed=$failed"
r=PASS
[ "$passed" -gt 0 ] && [ "$failed" -eq 0 ] || r=FAIL
ftn-result debug startup-selftests $r
ftn_ftracetest test.d/ftrace/recursed_functions.tc \
	test.d/ftrace/func-migrate.tc \
	test.d/event/userstacktrace-deferred.tc \
	test.d/event/userstacktrace-deferred-exit.tc
ftn_run_dir stress /stress
