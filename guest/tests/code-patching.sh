#!/bin/sh
# code-patching.sh: the verdict of the powerpc code-patching self-tests
# (CONFIG_CODE_PATCHING_SELFTEST), which the kernel ran once at boot:
# among them patch_instructions_page() of the series. A failed check
# prints "code-patching: test failed at line N"; a kernel that did not
# run them fails too. Exit 77 on other arches.
case $(uname -m) in
ppc64*) ;;
*) exit 77 ;;
esac
log=$(dmesg)
if ! echo "$log" | grep -q "Running code patching self-tests"; then
	echo "the code-patching self-tests did not run"
	exit 1
fi
if echo "$log" | grep "code-patching: test failed"; then
	exit 1
fi
echo "code-patching self-tests: no check failed"
