# harness-panic.sh: provoke a real panic; the host must fail this boot.
modprobe lkdtm && echo PANIC >/sys/kernel/debug/provoke-crash/DIRECT
exit 0
