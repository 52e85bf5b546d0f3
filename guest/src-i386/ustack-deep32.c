/*
 * ustack-deep32: ustack-deep for a 32-bit (compat) task: DEPTH calls deep
 * in deep(), busy loops alternating with getppid() (int $0x80), so that a
 * profiler sampling it finds a known 32-bit user stack. No libc (none for
 * i386 in the build): DEPTH 8 and ROUNDS 3000, fixed. Built with -m32 by
 * scripts/initramfs.sh for x86_64 guests (CONFIG_IA32_EMULATION).
 */
static volatile unsigned long sink;

static long sys1(long nr, long a)
{
	long ret;

	asm volatile("int $0x80" : "=a" (ret) : "0" (nr), "b" (a) : "memory");
	return ret;
}

static void __attribute__((noinline)) work(long rounds)
{
	long r, i;

	for (r = 0; r < rounds; r++) {
		for (i = 0; i < 20000; i++)
			sink += i;
		sys1(64, 0);	/* getppid */
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

void __attribute__((noreturn)) _start(void)
{
	deep(8, 3000);
	sys1(1, 0);	/* exit */
	for (;;)
		;
}
