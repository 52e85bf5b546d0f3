/*
 * ustack-bench: time a getppid() loop DEPTH frames deep (frame pointers,
 * 1 KiB of locals per frame), for make bench's user stack figures.
 * Prints one line per run: nanoseconds per call (CLOCK_MONOTONIC; under
 * QEMU -icount, virtual time).
 * With "cold", the stack is a shared memory mapping (memfd) and before
 * each call every page of it but the innermost two is unmapped from the
 * page tables (MADV_DONTNEED keeps the contents of a shared mapping): a
 * walk then finds the callers' frames not faulted in, as after reclaim.
 * With "perf-sync" or "perf-defer", a perf event of this task samples
 * every getppid() (tracepoint syscalls:sys_enter_getppid, period 1) with
 * its callchain, the user part walked in the sample or deferred to the
 * return to user space (attr.defer_callchain and defer_output); the ring
 * buffer is read between runs, outside the timing, and the last line,
 * "perf samples=S full=F frames=N lost=L", counts the samples, those
 * with every user frame (DEPTH frames of deep() and the 2 below them),
 * and the user frames in all. Exit 3 when the kernel refuses the event.
 * Usage: ustack-bench DEPTH CALLS RUNS [warm|cold] [perf-sync|perf-defer]
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/ioctl.h>
#include <linux/perf_event.h>

#include "ftn-now.h"

#define FRAME_PAD	1024
#define STACK_SIZE	(1 << 20)

static long calls;
static int runs, cold;
static char *stack;
static volatile unsigned long sink;
static int depth;

/* perf-sync, perf-defer: the event, its ring buffer and the counts */
#define PERF_PAGES		1024
#define CONTEXT_USER_DEFERRED	((__u64)-640)
#define CALLCHAIN_DEFERRED	22
/* defer_callchain and defer_output: the two bits after sigtrap (bit 37) */
#define DEFER_BITS		(3ULL << 38)
static struct perf_event_mmap_page *pmp;
static long psamples, pfull, pframes, plost;

static int perf_open(int defer)
{
	struct perf_event_attr attr;
	char buf[32];
	FILE *f = fopen("/sys/kernel/tracing/events/syscalls/sys_enter_getppid/id", "r");
	long page = sysconf(_SC_PAGESIZE);
	int fd;

	if (!f || !fgets(buf, sizeof(buf), f))
		return -1;
	fclose(f);
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = strtoull(buf, NULL, 10);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			   PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_IDENTIFIER;
	attr.sample_id_all = 1;
	attr.disabled = 1;
	if (defer)
		*(__u64 *)((char *)&attr + 40) |= DEFER_BITS;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		return -1;
	pmp = mmap(NULL, (PERF_PAGES + 1) * page, PROT_READ | PROT_WRITE,
		   MAP_SHARED, fd, 0);
	if (pmp == MAP_FAILED)
		return -1;
	return ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
}

static void perf_count(long users)
{
	psamples += users >= 0;
	if (users > 0)
		pframes += users;
	if (users >= depth + 2)
		pfull++;
}

/* Count the records of the last run and free their room */
static void perf_drain(void)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *data = (unsigned char *)pmp + page;
	__u64 size = (__u64)PERF_PAGES * page;
	__u64 head = __atomic_load_n(&pmp->data_head, __ATOMIC_ACQUIRE);
	__u64 tail = pmp->data_tail;
	static __u64 rec[8192];

	while (tail < head) {
		struct perf_event_header *h = (void *)rec;
		__u64 i, off = tail % size, *w = rec + 1;

		for (i = 0; i < sizeof(*h); i++)
			((unsigned char *)rec)[i] = data[(off + i) % size];
		if (h->size > sizeof(rec))
			exit(1);
		for (i = 0; i < h->size; i++)
			((unsigned char *)rec)[i] = data[(off + i) % size];
		tail += h->size;
		if (h->type == PERF_RECORD_SAMPLE) {
			/* identifier, pid/tid, time, nr, ips */
			__u64 nr = w[3], *ip = &w[4], u = 0;
			long users = -1;

			for (i = 0; i < nr; i++) {
				if (ip[i] == PERF_CONTEXT_USER)
					users = 0;
				else if (ip[i] == CONTEXT_USER_DEFERRED)
					break;	/* counted with its record */
				else if (users >= 0)
					u++;
			}
			if (users >= 0)
				perf_count(u);
		} else if (h->type == CALLCHAIN_DEFERRED) {
			perf_count(w[1]);	/* cookie, nr, ips */
		} else if (h->type == PERF_RECORD_LOST) {
			plost += w[1];
		}
	}
	__atomic_store_n(&pmp->data_tail, tail, __ATOMIC_RELEASE);
}

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
		if (pmp)
			perf_drain();
	}
	if (pmp)
		printf("perf samples=%ld full=%ld frames=%ld lost=%ld\n",
		       psamples, pfull, pframes, plost);
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

static void on_stack(void)
{
	deep(depth);
}

int main(int argc, char **argv)
{
	static ucontext_t main_ctx, ctx;

	if (argc < 4) {
		fprintf(stderr, "usage: ustack-bench DEPTH CALLS RUNS [warm|cold] [perf-sync|perf-defer]\n");
		return 2;
	}
	depth = atoi(argv[1]);
	calls = atol(argv[2]);
	runs = atoi(argv[3]);
	cold = argc > 4 && !strcmp(argv[4], "cold");
	if (depth < 1 || calls < 1 || runs < 1)
		return 2;
	if (argc > 5 && strncmp(argv[5], "perf-", 5))
		return 2;
	if (argc > 5 && perf_open(!strcmp(argv[5], "perf-defer"))) {
		perror("perf_event_open");
		return 3;
	}
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
