# unwind-api.sh: the deferred unwinding API itself, through the series'
# test_unwind_deferred.ko and guest/src/unwind-api.c: the frames of a
# known call chain, one walk and one cookie per kernel entry, cookies per
# entry, per CPU and across a migration, requests from a timer interrupt
# and, on x86_64, from NMI (served),
# an unregister with its request pending, corrupted frame-pointer (ppc64le:
# back) chains, the memory-short paths (fail-nth), on x86_64 a 32-bit
# task (guest/src-i386/unwind-compat: its ip alone), requests
# made from callbacks while execve() serves the old program, an exit
# whose walk meets a FUSE page that never comes in (no wait), a
# slot's new owner asking in its old owner's entry, and CHURN rounds of
# register/unregister of one slot's two owners while two processes
# request for both (default 200).
# Exit 77 (unsupported) where the kernel has no module.
m=test_unwind_deferred
modprobe $m 2>/dev/null || { echo "no $m"; exit 77; }
out=$(unwind-api "${CHURN:-200}")
rc=$?
echo "$out"
rmmod $m || rc=1
checks=$(echo "$out" | grep -c '^ok ')
skips=$(echo "$out" | grep -c '^skip ')
# checks that do not exist on this arch, each with its reason above
nothere=$(echo "$out" | sed -n 's/^not-here \([a-z]*\):.*/\1/p' | tr '\n' ' ')
churn=$(echo "$out" | sed -n 's/^churn: //p')
hard=$(echo "$out" | sed -n 's/^hardirq: //p')
ftn-figure unwind-api "checks=$checks skipped=$skips not_here=[${nothere% }] hardirq=[$hard] churn=[$churn]"
# Every check ran: a skip here is a missing config, not a pass
[ $rc -eq 0 ] && [ "$skips" -eq 0 ]
