# full.sh: the make test plan: what the kernel command line started at boot,
# every ftracetest case, then our own tests.
. /plans/boottrace.sh
. /plans/ftracetest.sh
. /plans/rundir.sh
ftn_boottrace
ftn_ftracetest
ftn_run_dir ours /tests
