/*
 * ustack-deep: sit DEPTH calls deep in functions built with frame
 * pointers and alternate busy loops with getppid() there, so that timer
 * interrupts (hardirq, softirq) and syscalls find a known user stack:
 * DEPTH frames of deep(), below them main() and the libc start code.
 * For the deferred user stack tests and make bench.
 * Usage: ustack-deep DEPTH ROUNDS   (each round: a busy loop, a getppid)
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>

static volatile unsigned long sink;

static void __attribute__((noinline)) work(long rounds)
{
	long r, i;

	for (r = 0; r < rounds; r++) {
		for (i = 0; i < 20000; i++)
			sink += i;
		syscall(SYS_getppid);
	}
}

static int __attribute__((noinline)) deep(int n, long rounds)
{
	if (n <= 0)
		work(rounds);
	else
		deep(n - 1, rounds);
	/* Not a tail call: each level keeps its frame */
	return sink != 1;
}

int main(int argc, char **argv)
{
	int depth = argc > 1 ? atoi(argv[1]) : 32;
	long rounds = argc > 2 ? atol(argv[2]) : 1000;

	if (argc != 3 || depth < 1 || rounds < 1) {
		fprintf(stderr, "usage: ustack-deep DEPTH ROUNDS\n");
		return 2;
	}
	/* deep(depth - 1) down to deep(0): DEPTH frames of deep() */
	return !deep(depth - 1, rounds);
}
