# reports.sh: guest fragment: ftn_reports prints how many kernel reports
# dmesg holds (those of scripts/scan-console.sh: panics, BUG, WARNING,
# lockdep, RCU, KASAN, UBSAN, stalls, list and refcount corruption), for
# a test that counts the reports made while it ran.
# Usage: . /plans/reports.sh; before=$(ftn_reports); ...
ftn_reports() {
	dmesg | grep -cE 'Kernel panic|BUG:|kernel BUG at|WARNING:|Oops|'\
'Unable to handle kernel|general protection fault|ftrace bug|'\
'ftrace faulted|possible circular|possible recursive|'\
'inconsistent lock state|suspicious RCU usage|KASAN:|UBSAN:|'\
'detected stall|soft lockup|blocked for more than|list_add corruption|'\
'list_del corruption|refcount_t:|kfence:'
}
