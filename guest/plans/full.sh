# full.sh: the make test plan: every ftracetest case, then our own tests.
. /plans/ftracetest.sh
. /plans/rundir.sh
ftn_ftracetest
ftn_run_dir ours /tests
