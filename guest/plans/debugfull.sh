# debugfull.sh: make test-full's plan for the debug kernels (x86_64 and
# ppc64le: lockdep, PROVE_RCU, UBSAN, ..., and KASAN on x86_64): the
# boot-time tracer selftests' verdicts, every ftracetest case, our tests
# and the stress tests, all under the checkers. Splats fail the boot
# through the console scan, whatever this plan reports.
. /plans/ftracetest.sh
. /plans/rundir.sh
. /plans/selftests.sh
ftn_startup_selftests
ftn_ftracetest
ftn_run_dir ours /tests
ftn_run_dir stress /stress
