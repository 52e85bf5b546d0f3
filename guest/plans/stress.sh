# stress.sh: the stress plan of make test (booted with 4 vCPUs): run each
# guest/stress/*.sh and report it as stress/<name>, PASS on exit 0.
. /plans/boottrace.sh
. /plans/rundir.sh
ftn_boottrace
echo "stress: $(grep -c '^processor' /proc/cpuinfo) CPUs online"
ftn_run_dir stress /stress
