# ftrace-next workbench: build Debian's linux-source-6.1 plus series/, boot
# it in QEMU and prove it. Two commands do everything on a fresh machine:
#   make run [ARCH=ppc64le]   boot the patched kernel and show the features
#                             (DEBUG=1: the x86_64 debug kernel, debug plan)
#   make test                 checkpatch, both arches, ftracetest, our tests
#                             (46 minutes cold in a fresh clone with an
#                             empty ccache, 2026-11-27; 77 on the
#                             fresh machine of 2026-11-28: README;
#                             make test-full: every boot whole)
#   make bench                the series against stock 6.1 and 6.12
#                             (not part of make test; build/bench/results.md)
# See README.md for the rest.

ARCH ?= x86_64
CPU ?=
TESTS ?=
FORCE ?=
S := scripts

export CPU

.PHONY: run shell test test-full bench ftracetest setup tree export check-export build \
	initramfs checkpatch objtool-baseline clean help

DEBUG ?=

run:
	@$(if $(DEBUG),FLAVOUR=debug SMP=4 )$(S)/run.sh $(ARCH) \
		$(if $(DEBUG),guest/plans/debug.sh,guest/plans/demo.sh)

shell:
	@INTERACTIVE=1 $(S)/run.sh $(ARCH) guest/plans/shell.sh

test:
	@$(S)/test.sh

test-full:
	@FULL=1 $(S)/test.sh

bench:
	@$(S)/bench.sh

ftracetest:
	@$(S)/ftracetest.sh $(ARCH) $(TESTS)

setup:
	@$(S)/setup.sh

tree: setup
	@$(S)/tree.sh $(if $(FORCE),--force)

export:
	@$(S)/export.sh

check-export:
	@$(S)/check-export.sh

build: setup
	@$(S)/tree.sh --lenient
	@$(S)/build.sh $(ARCH)

initramfs: build
	@$(S)/initramfs.sh $(ARCH)

checkpatch: tree
	@rm -f build/checkpatch.tally
	@$(S)/checkpatch.sh build/checkpatch.tally
	@$(S)/tally.sh build/checkpatch.tally

objtool-baseline:
	@$(S)/objtool-baseline.sh x86_64 debug

clean:
	rm -rf build/x86_64 build/ppc64le build/test build/log

help:
	@sed -n '1,/^$$/p' Makefile
