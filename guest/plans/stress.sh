# stress.sh: the stress plan of make test (booted with 4 vCPUs): run each
# guest/stress/*.sh and report it as stress/<name>, PASS on exit 0.
n=$(grep -c '^processor' /proc/cpuinfo)
echo "stress: $n CPUs online"
for t in /stress/*.sh; do
	[ -e "$t" ] || continue
	echo "== $t"
	if sh "$t"; then r=PASS; else r=FAIL; fi
	ftn-result stress "$(basename "$t" .sh)" "$r"
done
