/*
 * ustack-bench: time a getppid() loop DEPTH frames deep (frame pointers,
 * 1 KiB of locals per frame), for make bench's user stack figures.
 * Prints one line per run: nanoseconds per call (CLOCK_MONOTONIC; under
 * QEMU -icount, virtual time).
 * With "cold", the stack is a shared memory mapping (memfd) and before
 * each call every page of it but the innermost two is unmapped from the
 * page tables (MADV_DONTNEED keeps the contents of a shared mapping): a
 * walk then finds the callers' frames not faulted in, as after reclaim.
 * Usage: ustack-bench DEPTH CALLS RUNS [cold]
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "ftn-now.h"

#define FRAME_PAD	1024
#define STACK_SIZE	(1 << 20)

static long calls;
static int runs, cold;
static char *stack;
static volatile unsigned long sink;

static void zap_above(void)
{
	unsigned long sp = (unsigned long)__builtin_frame_address(0);
	unsigned long lo = (sp & ~4095UL) + 2 * 4096;
	unsigned long hi = (unsigned long)stack + STACK_SIZE;

	if (lo < hi)
		madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

static void __attribute__((noinline)) loop(void)
{
	int r;

	for (r = 0; r < runs; r++) {
		long long t0 = now();
		long k;

		for (k = 0; k < calls; k++) {
			if (cold)
				zap_above();
			syscall(SYS_getppid);
		}
		printf("%.1f\n", (double)(now() - t0) / calls);
	}
}

static int __attribute__((noinline)) deep(int n)
{
	volatile char pad[FRAME_PAD];

	pad[0] = (char)n;
	if (n <= 1)
		loop();
	else
		deep(n - 1);
	/* Not a tail call: each level keeps its frame */
	return pad[0] + (sink != 1);
}

static int depth;
static void on_stack(void)
{
	deep(depth);
}

int main(int argc, char **argv)
{
	static ucontext_t main_ctx, ctx;

	if (argc < 4) {
		fprintf(stderr, "usage: ustack-bench DEPTH CALLS RUNS [cold]\n");
		return 2;
	}
	depth = atoi(argv[1]);
	calls = atol(argv[2]);
	runs = atoi(argv[3]);
	cold = argc > 4 && !strcmp(argv[4], "cold");
	if (depth < 1 || calls < 1 || runs < 1)
		return 2;
	if (!cold) {
		deep(depth);
		return 0;
	}
	{
		int fd = memfd_create("ustack", 0);

		if (fd < 0 || ftruncate(fd, STACK_SIZE))
			return 1;
		stack = mmap(NULL, STACK_SIZE, PROT_READ | PROT_WRITE,
			     MAP_SHARED, fd, 0);
		if (stack == MAP_FAILED)
			return 1;
	}
	getcontext(&ctx);
	ctx.uc_stack.ss_sp = stack;
	ctx.uc_stack.ss_size = STACK_SIZE;
	ctx.uc_link = &main_ctx;
	makecontext(&ctx, on_stack, 0);
	return swapcontext(&main_ctx, &ctx) ? 1 : 0;
}
