# selftests.sh: guest plan fragment: the verdicts of the boot-time tracer
# selftests (CONFIG_FTRACE_STARTUP_TEST, the debug kernels), reported as
# debug/startup-selftests.
# Usage (in a plan): ftn_startup_selftests
ftn_startup_selftests() {
	passed=$(dmesg | grep -c 'Testing tracer .*: PASSED')
	failed=$(dmesg | grep -c 'Testing tracer .*: FAILED')
	dmesg | grep 'Testing tracer ' | sed 's/^\[[^]]*\] /  /'
	ftn-figure startup-selftests "tracers passed=$passed failed=$failed"
	r=PASS
	[ "$passed" -gt 0 ] && [ "$failed" -eq 0 ] || r=FAIL
	ftn-result debug startup-selftests $r
}
