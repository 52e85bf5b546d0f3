# shell.sh: an interactive shell on the console; leaving it ends the guest.
echo "ftrace-next guest: tracefs at /sys/kernel/tracing; exit to power off"
setsid cttyhack sh -l
