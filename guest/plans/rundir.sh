# rundir.sh: guest plan fragment: run each DIR/*.sh and report it as
# SUITE/<name>: PASS on exit 0, UNSUPPORTED on exit 77 (not run here: the
# kernel lacks the feature, or the plan asked for no rounds; expect/ must
# list it), FAIL otherwise. The console gets each one's time in seconds.
# STRESS_SKIP=name,name (kernel command line): scripts of any DIR not
# run, each reported UNTESTED, so that an expectations file must name it
# and say why (a misspelt name leaves its script running, and the
# listed UNTESTED then fails the run).
# Usage (in a plan): ftn_run_dir SUITE DIR
ftn_run_dir() {
	for t in "$2"/*.sh; do
		[ -e "$t" ] || continue
		case ",${STRESS_SKIP:-}," in
		*,"$(basename "$t" .sh)",*)
			echo "== $t: not run (STRESS_SKIP)"
			ftn-result "$1" "$(basename "$t" .sh)" UNTESTED
			continue ;;
		esac
		echo "== $t"
		start=$(date +%s)
		sh "$t"
		rc=$?
		echo "== $t: exit $rc after $(($(date +%s) - start)) s"
		case $rc in
		0) r=PASS ;;
		77) r=UNSUPPORTED ;;
		*) r=FAIL ;;
		esac
		ftn-result "$1" "$(basename "$t" .sh)" "$r"
	done
}
