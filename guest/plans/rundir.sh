# rundir.sh: guest plan fragment: run each DIR/*.sh and report it as
# SUITE/<name>, PASS on exit 0.
# Usage (in a plan): ftn_run_dir SUITE DIR
ftn_run_dir() {
	for t in "$2"/*.sh; do
		[ -e "$t" ] || continue
		echo "== $t"
		if sh "$t"; then r=PASS; else r=FAIL; fi
		ftn-result "$1" "$(basename "$t" .sh)" "$r"
	done
}
