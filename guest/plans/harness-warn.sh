# harness-warn.sh: provoke a real WARN; the host must fail this boot.
modprobe lkdtm && echo WARNING >/sys/kernel/debug/provoke-crash/DIRECT
exit 0
