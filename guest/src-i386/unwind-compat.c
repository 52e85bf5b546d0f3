/*
 * unwind-compat: a 32-bit (compat) task that asks test_unwind_deferred.ko
 * for its user stack ("req 1" to its debugfs ctl) and exits: the deferred
 * walk must refuse its frames and hand over the ip alone. No libc (none
 * for i386 in the build); built with -m32 by scripts/initramfs.sh for
 * x86_64 guests, which need CONFIG_IA32_EMULATION. Exit status 0 when the
 * request was written.
 */
static long sys3(long nr, long a, long b, long c)
{
	long ret;

	asm volatile("int $0x80"
		     : "=a" (ret)
		     : "0" (nr), "b" (a), "c" (b), "d" (c)
		     : "memory");
	return ret;
}

void __attribute__((noreturn)) _start(void)
{
	static const char path[] = "/sys/kernel/debug/unwind_deferred_test/ctl";
	long fd = sys3(5, (long)path, 1, 0);	/* open(path, O_WRONLY) */
	long st = 1;

	if (fd >= 0 && sys3(4, fd, (long)"req 1", 5) == 5)	/* write */
		st = 0;
	sys3(1, st, 0, 0);	/* exit */
	for (;;)
		;
}
