# harness-stall.sh: hold one CPU in a loop with preemption off (lkdtm's
# SOFTLOCKUP) until RCU reports a stall, and never finish; the host must
# stop this boot soon after the report, long before its timeout.
modprobe lkdtm || exit 1
echo SOFTLOCKUP >/sys/kernel/debug/provoke-crash/DIRECT &
while :; do sleep 60; done
