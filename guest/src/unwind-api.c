/*
 * unwind-api: drive test_unwind_deferred.ko (debugfs unwind_deferred_test/)
 * from call chains whose return addresses this program records itself,
 * and check what the deferred unwinder handed to the callbacks: frames in
 * order, one call per callback per kernel entry, cookies per entry, per
 * CPU and across a migration, hardirq and NMI requests (both served), an
 * unregister with a request pending, corrupted frame-pointer chains, the
 * memory-short paths (fault injection), a 32-bit task (unwind-compat),
 * requests made from calls while execve() serves the old program, an
 * exit whose walk meets a page that never comes in (FUSE), and
 * register/unregister races.
 * x86_64 (the raw syscalls set %rbp) and little-endian ppc64 (they set
 * r1: the back chain starts there); exit 77 elsewhere. Not on ppc64: the
 * NMI check (the module has no NMI to raise there: a CPU cannot send
 * itself a system reset, and QEMU 7.2's TCG delivers no performance
 * monitor interrupt, the NMI perf gets when interrupts are soft-masked,
 * even with irqs on: tried with instruction and cycle counters, none in
 * /proc/interrupts) and the 32-bit check (no little-endian 32-bit
 * powerpc user space exists to build one from). Each says so in a
 * "not-here" line.
 * Usage: unwind-api [CHURN_ROUNDS]; prints "ok NAME" per check, exit 1 on
 * the first failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/fuse.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#if defined(__x86_64__)
#define USER_END	0x800000000000UL	/* above is kernel */
#define KERNEL_DATA	0xffff888000000000UL	/* the direct map */
#define KERNEL_TEXT	0xffffffff81000000UL
#elif defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
#define USER_END	0x0010000000000000UL	/* TASK_SIZE_USER64, 4 PiB */
#define KERNEL_DATA	0xc000000000000000UL	/* the linear map */
#define KERNEL_TEXT	0xc000000000010000UL
#else
#define UNSUPPORTED
#endif

#ifdef UNSUPPORTED
int main(void)
{
	printf("unwind-api: x86_64 and little-endian ppc64 only\n");
	return 77;
}
#else
#define DIR	"/sys/kernel/debug/unwind_deferred_test/"
#define MAXREC		1024
#define FRAMES		16

struct rec {
	int call;		/* else a request */
	char cb, ctx;
	int pid, ret, cpu;
	unsigned long long cookie;
	unsigned long data;
	unsigned int nr, nframes;
	unsigned long f[FRAMES];
};

static struct rec recs[MAXREC];
static int nrecs;
static int ctl_fd;
static const char *check = "setup";

static void __attribute__((format(printf, 1, 2))) fail(const char *fmt, ...)
{
	va_list ap;

	printf("FAIL %s: ", check);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	exit(1);
}

static void ok(void)
{
	printf("ok %s\n", check);
}

#ifdef __x86_64__
/*
 * write(2) with %rbp set to @fp for the kernel to find; 0 or -errno. The
 * red zone is stepped over before anything is pushed.
 */
static long __attribute__((noinline)) raw_write(unsigned long fp, int fd,
						 const char *buf,
						 unsigned long len)
{
	long ret;

	asm volatile("sub $128, %%rsp\n\t"
		     "push %%rbp\n\t"
		     "mov %[fp], %%rbp\n\t"
		     "syscall\n\t"
		     "pop %%rbp\n\t"
		     "add $128, %%rsp"
		     : "=a" (ret)
		     : "0" (1L), "D" ((long)fd), "S" (buf), "d" (len),
		       [fp] "r" (fp)
		     : "rcx", "r11", "memory");
	return ret;
}

/* write(2) whose stack starts at the frame of the function it is in */
#define frame_write(fd, buf, len) \
	raw_write((unsigned long)__builtin_frame_address(0), fd, buf, len)
#else
/*
 * write(2) by sc in the function it is inlined into, whose frame the
 * kernel finds at r1; 0 or -errno. sc leaves r1, r2 and r13-r31 as they
 * were and sets cr0.SO on an error, with the errno in r3.
 */
static inline __attribute__((always_inline)) long frame_write(int fd,
							      const char *buf,
							      unsigned long len)
{
	register long r0 __asm__("r0") = 4;	/* __NR_write */
	register long r3 __asm__("r3") = fd;
	register long r4 __asm__("r4") = (long)buf;
	register long r5 __asm__("r5") = len;
	unsigned long cr;

	__asm__ volatile("sc\n\t"
			 "mfcr %[cr]"
			 : "+r" (r0), "+r" (r3), "+r" (r4), "+r" (r5),
			   [cr] "=r" (cr)
			 :
			 : "r6", "r7", "r8", "r9", "r10", "r11", "r12",
			   "ctr", "xer", "cr0", "memory");
	return cr & 0x10000000 ? -r3 : r3;
}

/*
 * write(2) with r1 set to @sp for the kernel to find: raw_write(sp, fd,
 * buf, len), 0 or -errno. A leaf without a frame; r14 keeps the real
 * stack pointer, and r14 itself waits in the red zone below it. After
 * the sc comes the shape of glibc's syscall wrappers: a pop, a
 * conditional branch and a return, so that the walk reads the back
 * chain at @sp and takes LR (the caller of raw_write) for the top frame.
 */
long raw_write(unsigned long sp, int fd, const char *buf, unsigned long len);
__asm__(".pushsection .text\n"
	".globl raw_write\n"
	".type raw_write, @function\n"
	".p2align 2\n"
	"raw_write:\n\t"
	"std 14, -8(1)\n\t"
	"mr 14, 1\n\t"
	"mr 1, 3\n\t"
	"mr 3, 4\n\t"
	"mr 4, 5\n\t"
	"mr 5, 6\n\t"
	"li 0, 4\n\t"
	"sc\n\t"
	"mr 1, 14\n\t"
	"ld 14, -8(1)\n\t"
	"bns+ 1f\n\t"
	"neg 3, 3\n"
	"1:\tblr\n"
	".size raw_write, . - raw_write\n"
	".popsection");
#endif

/* Return addresses of the chain, innermost first, as each level saw it */
static unsigned long ra[4];
static unsigned long ctl_ra;

/* write(2) from a frame of its own, so that the chain starts here */
static long __attribute__((noinline)) ctl_write(const char *cmd)
{
	long ret;

	ctl_ra = (unsigned long)__builtin_return_address(0);
	ret = frame_write(ctl_fd, cmd, strlen(cmd));
	return ret < 0 ? ret : 0;
}

static long ctl(const char *cmd)
{
	return ctl_write(cmd);
}

static long __attribute__((noinline)) chain_c(const char *cmd)
{
	long ret;

	ra[0] = (unsigned long)__builtin_return_address(0);
	ret = ctl_write(cmd);
	ra[1] = ctl_ra;	/* into chain_c: the first frame above the ip */
	return ret + (ra[0] == 0);
}

static long __attribute__((noinline)) chain_b(const char *cmd)
{
	long ret;

	ra[2] = (unsigned long)__builtin_return_address(0);
	ret = chain_c(cmd);
	return ret + (ra[2] == 0);
}

static long __attribute__((noinline)) chain_a(const char *cmd)
{
	long ret;

	ra[3] = (unsigned long)__builtin_return_address(0);
	ret = chain_b(cmd);
	return ret + (ra[3] == 0);
}

/*
 * The frames a request from chain_a(cmd) must give: the ip in raw_write
 * (which hands the kernel ctl_write's frame; on ppc64 the ip is in
 * ctl_write), then the return addresses of ctl_write (into chain_c),
 * chain_c, chain_b and chain_a.
 */
static void expect_chain_n(struct rec *r, int n)
{
	unsigned long want[4] = { ra[1], ra[0], ra[2], ra[3] };
	int i;

	if (r->nr < 5 || r->nframes < 5)
		fail("fewer than 5 frames for the known chain");
	for (i = 0; i < n; i++)
		if (r->f[i + 1] != want[i])
			fail("frame %d is %lx, want %lx", i + 1, r->f[i + 1],
			     want[i]);
}

static void expect_chain(struct rec *r)
{
	expect_chain_n(r, 4);
}

/*
 * A child's chain, checked from the parent: chain_a's return address is
 * the child's caller's and was recorded in the child's memory.
 */
static void expect_child_chain(struct rec *r)
{
	expect_chain_n(r, 3);
}

static void read_log(void)
{
	static char buf[MAXREC * 320];
	char *line, *save;
	ssize_t n, len = 0;
	int fd = open(DIR "log", O_RDONLY);

	if (fd < 0)
		fail("cannot open log");
	while ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	nrecs = 0;
	for (line = strtok_r(buf, "\n", &save); line && nrecs < MAXREC;
	     line = strtok_r(NULL, "\n", &save)) {
		struct rec *r = &recs[nrecs];
		char frames[FRAMES * 20] = "", *p, *fs;

		memset(r, 0, sizeof(*r));
		if (sscanf(line, "req cb=%c ctx=%c pid=%d cpu=%d ret=%d cookie=%llx",
			   &r->cb, &r->ctx, &r->pid, &r->cpu, &r->ret,
			   &r->cookie) == 6) {
			nrecs++;
			continue;
		}
		if (sscanf(line, "call cb=%c ctx=%c pid=%d cookie=%llx data=%lu nr=%u frames=%319s",
			   &r->cb, &r->ctx, &r->pid, &r->cookie, &r->data,
			   &r->nr, frames) < 6)
			fail("unparsable log line: %s", line);
		r->call = 1;
		for (p = strtok_r(frames, ",", &fs); p && r->nframes < FRAMES;
		     p = strtok_r(NULL, ",", &fs))
			r->f[r->nframes++] = strtoul(p, NULL, 16);
		nrecs++;
	}
	/* Nothing the kernel hands out may point into the kernel */
	for (int i = 0; i < nrecs; i++)
		for (unsigned int j = 0; j < recs[i].nframes; j++)
			if (recs[i].f[j] >= USER_END)
				fail("a kernel address in a user stack");
}

static int count(int call, char cb, unsigned long data, int pid)
{
	int i, n = 0;

	for (i = 0; i < nrecs; i++)
		if (recs[i].call == call && recs[i].cb == cb &&
		    (!call || recs[i].data == data) &&
		    (!pid || recs[i].pid == pid))
			n++;
	return n;
}

static struct rec *find(int call, char cb, int nth)
{
	int i;

	for (i = 0; i < nrecs; i++)
		if (recs[i].call == call && recs[i].cb == cb && !nth--)
			return &recs[i];
	fail("an expected log record is missing");
	return NULL;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	if (cpu < 0) {
		for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
			CPU_SET(cpu, &set);
	} else {
		CPU_SET(cpu, &set);
	}
	if (sched_setaffinity(0, sizeof(set), &set))
		fail("sched_setaffinity");
}

static void clear(void)
{
	if (ctl("clear"))
		fail("clear");
}

/* An empty log, then one command that must succeed */
static void fresh(const char *cmd)
{
	long ret;

	clear();
	ret = ctl(cmd);
	if (ret)
		fail("\"%s\" failed: %s", cmd, strerror(-ret));
}

static unsigned int cookie_cpu(unsigned long long c)
{
	return c >> 48;
}

/* N requests per callback in one entry: one cookie, one call each */
static void test_one_walk(void)
{
	struct rec *a, *b;
	int i;

	check = "one-walk";
	pin(0);
	clear();
	if (chain_a("req 4"))
		fail("req 4 refused");
	read_log();
	if (count(0, 'A', 0, 0) != 4 || count(0, 'B', 0, 0) != 4)
		fail("not 4 requests per callback");
	a = find(0, 'A', 0);
	for (i = 0; i < nrecs; i++)
		if (!recs[i].call &&
		    (recs[i].ret || recs[i].cookie != a->cookie))
			fail("a request failed or got another cookie");
	if (!a->cookie || cookie_cpu(a->cookie) != 0)
		fail("cookie 0 or not CPU 0's");
	if (count(1, 'A', 1, 0) != 1 || count(1, 'B', 1, 0) != 1)
		fail("not exactly one call per callback");
	a = find(1, 'A', 0);
	b = find(1, 'B', 0);
	if (a->cookie != find(0, 'A', 0)->cookie || b->cookie != a->cookie)
		fail("a call with another cookie than its requests");
	if (a->pid != getpid())
		fail("the call names another task");
	expect_chain(a);
	expect_chain(b);
	ok();
}

/* Two entries: two cookies, counting up on the same CPU; one per CPU */
static void test_cookies(void)
{
	unsigned long long c0, c1;
	int cpus = sysconf(_SC_NPROCESSORS_ONLN);

	check = "cookies";
	pin(0);
	fresh("req 1");
	if (ctl("req 1"))
		fail("the second req 1 refused");
	read_log();
	c0 = find(0, 'A', 0)->cookie;
	c1 = find(0, 'A', 1)->cookie;
	if (c0 == c1 || cookie_cpu(c1) != 0 || c1 <= c0)
		fail("two entries on CPU 0 did not get rising cookies");
	if (count(1, 'A', 1, 0) != 2)
		fail("not one call per entry");
	if (cpus > 1) {
		pin(1);
		fresh("req 1");
		read_log();
		if (cookie_cpu(find(0, 'A', 0)->cookie) != 1)
			fail("a cookie taken on CPU 1 is not CPU 1's");
	}
	ok();
}

/* A migration within the entry keeps its cookie */
static void test_migrate(void)
{
	struct rec *a, *b;

	check = "migrate";
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		printf("skip %s: one CPU\n", check);
		return;
	}
	pin(-1);
	fresh("migrate");
	read_log();
	a = find(0, 'A', 0);
	b = find(0, 'B', 0);
	if (a->cpu == b->cpu)
		fail("the task did not move");
	if (a->cookie != b->cookie || cookie_cpu(a->cookie) != (unsigned)a->cpu)
		fail("the cookie changed with the CPU");
	if (find(1, 'A', 0)->cookie != a->cookie ||
	    find(1, 'B', 0)->cookie != a->cookie)
		fail("a call with another cookie");
	ok();
}

static void read_stats(int *c_calls, int *d_calls, int *d_stale, int *lost)
{
	FILE *f = fopen(DIR "stats", "r");

	if (!f || fscanf(f, "lost=%d c_calls=%d d_calls=%d d_stale=%d",
			 lost, c_calls, d_calls, d_stale) != 4)
		fail("cannot read stats");
	fclose(f);
}

/* Unregistered with its request pending: never called, nothing breaks */
static void test_unreg(void)
{
	int c, d, s, lost;

	check = "unregister-pending";
	fresh("unreg");
	read_log();
	if (find(0, 'C', 0)->ret)
		fail("the request was refused");
	/* A, asked in the same entry, was called: the task work ran */
	if (count(1, 'A', 4, getpid()) != 1)
		fail("the entry's task work did not run");
	read_stats(&c, &d, &s, &lost);
	if (c)
		fail("an unregistered callback was called");
	ok();
}

static volatile unsigned long sink;
static unsigned long spin_ra[2];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void __attribute__((noinline)) spin(double until)
{
	spin_ra[0] = (unsigned long)__builtin_return_address(0);
	/* Mostly here, rarely in clock_gettime(), whose libc has no frames */
	while (now() < until)
		for (int i = 0; i < 100000; i++)
			sink++;
	sink += spin_ra[0] == 0;
}

static void __attribute__((noinline)) spin_b(double until)
{
	spin_ra[1] = (unsigned long)__builtin_return_address(0);
	spin(until);
	sink += spin_ra[1] == 0;
}

/* Requests from the timer interrupt while the task runs in user space */
static void test_timer(void)
{
	int i, reqs = 0, calls = 0, exact = 0;

	check = "hardirq";
	pin(0);
	fresh("timer 300");
	spin_b(now() + 0.5);
	read_log();
	for (i = 0; i < nrecs; i++) {
		struct rec *r = &recs[i];

		if (!r->call && r->ctx == 'h') {
			if (r->ret)
				fail("a hardirq request was refused");
			reqs++;
		}
		if (r->call && r->data == 3) {
			calls++;
			if (r->nframes >= 3 && r->f[1] == spin_ra[0] &&
			    r->f[2] == spin_ra[1])
				exact++;
		}
	}
	printf("hardirq: %d requests, %d calls, %d with spin's frames\n",
	       reqs, calls, exact);
	if (!reqs || !calls || !exact)
		fail("no hardirq request served with the spinning chain");
	ok();
}

#ifdef __x86_64__
/* DATA_NMI in the module */
#define DATA_NMI	7

/*
 * A request from an NMI the task sends itself in a write(): accepted, and
 * called back once with its cookie and the writer's chain.
 */
static void test_nmi(void)
{
	struct rec *r, *c;

	check = "nmi";
	clear();
	/* ETIMEDOUT: no NMI arrived */
	if (chain_a("nmi"))
		fail("\"nmi\" failed");
	read_log();
	r = find(0, 'A', 0);
	if (r->ctx != 'n' || r->ret)
		fail("a request from NMI was refused (%d)", r->ret);
	if (count(1, 'A', DATA_NMI, getpid()) != 1)
		fail("the NMI request was not called back once");
	c = find(1, 'A', 0);
	if (c->cookie != r->cookie || !c->cookie)
		fail("the NMI request's call has another cookie");
	expect_chain(c);
	ok();
}
#endif

/* One request with %rbp (ppc64: r1) = fp; returns the call's frame count */
static unsigned int corrupt_one(unsigned long fp, const char *what)
{
	struct rec *c;

	clear();
	if (raw_write(fp, ctl_fd, "req 1", 5) < 0)
		fail("request refused with a corrupt chain: %s", what);
	read_log();
	c = find(1, 'A', 0);
	if (c->cookie != find(0, 'A', 0)->cookie)
		fail("another cookie: %s", what);
	return c->nr;
}

/* An address above the stack in a gap of two pages nothing maps */
static unsigned long unmapped_above_stack(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long lo, hi, gap = 0, prev = 0;
	char line[256];

	/* maps is sorted: after [stack], the first hole of two pages */
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx", &lo, &hi) != 2)
			continue;
		if (prev && !gap && lo - prev >= 2 * 4096)
			gap = prev;
		if (strstr(line, "[stack]") || (prev && !gap))
			prev = hi;
	}
	if (f)
		fclose(f);
	if (prev && !gap && USER_END - 4096 - prev >= 2 * 4096)
		gap = prev;
	if (!gap)
		fail("no unmapped page above the stack");
	return gap + 64;
}

#ifdef __x86_64__
#define CHAIN_START	"frame pointer"
#else
#define CHAIN_START	"stack pointer"
#endif

/* A chain that starts in the kernel or in an unmapped page: the ip alone */
static void corrupt_bad_start(void)
{
	if (corrupt_one(KERNEL_DATA, "kernel pointer") != 1)
		fail("a kernel " CHAIN_START " was followed");
	if (corrupt_one(unmapped_above_stack(), "unmapped") != 1)
		fail("an unmapped " CHAIN_START " was followed");
}

#ifdef __x86_64__
static void test_corrupt(void)
{
	unsigned long fr[4] __attribute__((aligned(16)));
	unsigned int nr;

	check = "corrupt-chains";
	corrupt_bad_start();
	nr = corrupt_one((unsigned long)fr + 3, "misaligned");
	if (nr != 1)
		fail("a misaligned frame pointer was followed");
	/* A frame whose return address lies in the kernel */
	fr[0] = 0;
	fr[1] = KERNEL_TEXT;
	nr = corrupt_one((unsigned long)fr, "kernel return address");
	if (nr != 1)
		fail("a kernel return address was handed out");
	/* A frame whose saved frame pointer is itself */
	fr[0] = (unsigned long)fr;
	fr[1] = (unsigned long)&test_corrupt + 1;
	nr = corrupt_one((unsigned long)fr, "loop");
	if (nr != 2 || find(1, 'A', 0)->f[1] != fr[1])
		fail("a self-referencing frame was not cut after it");
	ok();
}
#else
/*
 * ppc64: raw_write() is a leaf, so its caller's return address comes
 * from LR once the back chain word at r1 leads to a plausible frame
 * (above r1, 16-byte aligned); each frame after that is the word at the
 * frame's back chain and the return address 16 bytes above it. Frames
 * of 4 words, 16-byte aligned, rising: fr + 4 * N. (No signal may come
 * while r1 points at them: the program installs no handler.)
 */
static void test_corrupt(void)
{
	unsigned long fr[16] __attribute__((aligned(16)));
	unsigned long text = (unsigned long)&test_corrupt + 8;
	unsigned int nr;

	check = "corrupt-chains";
	corrupt_bad_start();
	/* A back chain to an 8-byte aligned frame */
	memset(fr, 0, sizeof(fr));
	fr[0] = (unsigned long)&fr[5];
	fr[5] = (unsigned long)&fr[9];
	fr[11] = text;
	nr = corrupt_one((unsigned long)fr, "misaligned");
	if (nr != 1)
		fail("a misaligned back chain was followed");
	/* A back chain below the frame it is in */
	fr[4] = (unsigned long)fr;
	fr[0] = (unsigned long)&fr[4];
	nr = corrupt_one((unsigned long)&fr[4], "downwards");
	if (nr != 1)
		fail("a back chain pointing down was followed");
	/* A frame whose return address lies in the kernel */
	fr[0] = (unsigned long)&fr[4];
	fr[4] = (unsigned long)&fr[8];
	fr[8] = (unsigned long)&fr[12];
	fr[10] = KERNEL_TEXT;
	fr[12] = 0;
	nr = corrupt_one((unsigned long)fr, "kernel return address");
	if (nr != 2)
		fail("a kernel return address was handed out (%u frames)", nr);
	/* One good frame, then a back chain to itself */
	fr[10] = text;
	fr[8] = (unsigned long)&fr[8];
	nr = corrupt_one((unsigned long)fr, "loop");
	if (nr != 3 || find(1, 'A', 0)->f[2] != text)
		fail("a self-referencing frame was not cut after it (%u frames)",
		     nr);
	/* And the same chain ending well: the walk takes all of it */
	fr[8] = (unsigned long)&fr[12];
	fr[12] = 0;
	fr[14] = text + 4;
	nr = corrupt_one((unsigned long)fr, "good");
	if (nr != 4 || find(1, 'A', 0)->f[2] != text ||
	    find(1, 'A', 0)->f[3] != text + 4)
		fail("a hand-made chain was not walked (%u frames)", nr);
	ok();
}
#endif

static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	int ret = -1;

	if (fd >= 0) {
		ret = write(fd, val, strlen(val)) == (ssize_t)strlen(val) ? 0 : -1;
		close(fd);
	}
	return ret;
}

/*
 * A fresh task (no walk buffer yet) with its first fault-injection point
 * failing. The request path allocates nothing, so the request is
 * accepted and the failure hits the walk buffer in the task work: the
 * call gets the ip alone. Returns the child's status: 0 fine, 2 the fault
 * never fired, else a failure.
 */
static int memshort_child(void)
{
	char v[8];
	long ret;
	int fd = open("/proc/self/fail-nth", O_RDWR);

	if (fd < 0)
		return 3;
	if (write(fd, "1", 1) != 1)
		return 3;
	ret = chain_a("req 1");
	if (pread(fd, v, sizeof(v) - 1, 0) <= 0)
		return 3;
	close(fd);
	if (atoi(v) != 0)
		return 2;
	if (ret)
		return 4;
	/* And the next entry works in full */
	return chain_a("req 1") ? 6 : 0;
}

static void test_memshort(void)
{
	pid_t pid;
	int st;

	check = "memory-short";
	if (access("/proc/self/fail-nth", F_OK) ||
	    write_file("/sys/kernel/debug/failslab/ignore-gfp-wait", "N")) {
		printf("skip %s: no failslab\n", check);
		return;
	}
	clear();
	pid = fork();
	if (!pid)
		_exit(memshort_child());
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		fail("child");
	if (WEXITSTATUS(st))
		fail("child status %d", WEXITSTATUS(st));
	read_log();
	if (find(0, 'A', 0)->ret || count(1, 'A', 1, pid) != 2)
		fail("an accepted request lost its call");
	if (find(1, 'A', 0)->nr != 1)
		fail("no ip-only stack when memory was short");
	expect_child_chain(find(1, 'A', 1));
	write_file("/sys/kernel/debug/failslab/ignore-gfp-wait", "Y");
	ok();
}

#ifdef __x86_64__
/* A 32-bit task: its frames are not walked, its ip alone is handed over */
static void test_compat(void)
{
	const char *prog = "/usr/bin/unwind-compat";
	int i, st, calls = 0;
	pid_t pid;

	check = "compat";
	if (access(prog, X_OK)) {
		printf("skip %s: no %s\n", check, prog);
		return;
	}
	clear();
	pid = fork();
	if (!pid) {
		execl(prog, prog, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		fail("fork");
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		fail("the 32-bit task failed (no IA32_EMULATION?)");
	read_log();
	for (i = 0; i < nrecs; i++) {
		struct rec *r = &recs[i];

		if (!r->call || r->pid != pid || r->cb != 'A')
			continue;
		calls++;
		if (r->nr != 1 || r->f[0] >= 0x100000000UL)
			fail("not the 32-bit ip alone");
	}
	if (calls != 1)
		fail("not one call for the 32-bit task");
	ok();
}
#endif

/*
 * Requests made while execve() serves the old program: a kprobe on
 * begin_new_exec() asks for E, E's call asks for A, A's call for B. All
 * must be accepted and called there, with the old program's cookie.
 */
static void test_exec_chain(void)
{
	int i, st, e = 0, ra = 0, rb = 0, ca = 0, cb = 0;
	unsigned long long x = 0;
	pid_t pid;

	check = "exec-chain";
	clear();
	pid = fork();
	if (!pid) {
		if (ctl("execchain 2"))
			_exit(2);
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		fail("fork");
	if (WEXITSTATUS(st) == 2)
		fail("execchain refused (a kernel without KPROBES?)");
	if (WEXITSTATUS(st))
		fail("child status %d", WEXITSTATUS(st));
	read_log();
	for (i = 0; i < nrecs; i++)
		if (recs[i].pid == pid && recs[i].call && recs[i].cb == 'E') {
			x = recs[i].cookie;
			e++;
		}
	if (e != 1 || !x)
		fail("%d calls of E, the request made at execve()", e);
	for (i = 0; i < nrecs; i++) {
		struct rec *r = &recs[i];

		if (r->pid != pid || r->cb == 'E')
			continue;
		if (!r->call && r->ret)
			fail("%c's request, made by a call in execve(), got %d",
			     r->cb, r->ret);
		if (r->cookie != x)
			fail("cookie %llx in execve(), not E's %llx",
			     r->cookie, x);
		if (r->call && r->data != 8)
			fail("a call for another request than the chain's");
		*(r->call ? (r->cb == 'A' ? &ca : &cb) :
		  (r->cb == 'A' ? &ra : &rb)) += 1;
	}
	if (ra != 1 || rb != 1 || ca != 1 || cb != 1)
		fail("requests A %d B %d, calls A %d B %d, want one each",
		     ra, rb, ca, cb);
	ok();
}

/*
 * A FUSE file system whose reads are never answered: the daemon replies
 * to everything needed to open and map its one file, and to no READ.
 */
static void fuse_daemon(int fd)
{
	static char buf[FUSE_MIN_READ_BUFFER + 65536];
	struct {
		struct fuse_out_header h;
		union {
			struct fuse_init_out init;
			struct fuse_entry_out entry;
			struct fuse_attr_out attr;
			struct fuse_open_out open;
		} u;
	} out;
	struct fuse_in_header *in = (void *)buf;
	struct fuse_attr *a = NULL;
	size_t len;

	for (;;) {
		if (read(fd, buf, sizeof(buf)) < (ssize_t)sizeof(*in)) {
			if (errno == EINTR || errno == ENOENT)
				continue;
			_exit(0);
		}
		memset(&out, 0, sizeof(out));
		out.h.unique = in->unique;
		len = 0;
		switch (in->opcode) {
		case FUSE_INIT:
			out.u.init.major = FUSE_KERNEL_VERSION;
			out.u.init.minor =
				((struct fuse_init_in *)(in + 1))->minor;
			out.u.init.max_write = 4096;
			len = sizeof(out.u.init);
			break;
		case FUSE_LOOKUP:
			out.u.entry.nodeid = 2;
			out.u.entry.entry_valid = 1000;
			out.u.entry.attr_valid = 1000;
			a = &out.u.entry.attr;
			len = sizeof(out.u.entry);
			break;
		case FUSE_GETATTR:
			out.u.attr.attr_valid = 1000;
			a = &out.u.attr.attr;
			len = sizeof(out.u.attr);
			break;
		case FUSE_OPEN:
			len = sizeof(out.u.open);
			break;
		case FUSE_FLUSH:
		case FUSE_RELEASE:
			break;
		case FUSE_READ:		/* the point: never answered */
		case FUSE_FORGET:	/* no reply wanted */
		case FUSE_BATCH_FORGET:
		case FUSE_INTERRUPT:
			continue;
		default:
			out.h.error = -ENOSYS;
			break;
		}
		if (a) {
			int dir = in->nodeid == FUSE_ROOT_ID &&
				  in->opcode == FUSE_GETATTR;

			a->ino = dir ? FUSE_ROOT_ID : 2;
			a->mode = dir ? S_IFDIR | 0755 : S_IFREG | 0444;
			a->nlink = 1;
			a->size = dir ? 0 : 4096;
			a->blocks = 8;
			a = NULL;
		}
		out.h.len = sizeof(out.h) + len;
		if (write(fd, &out, out.h.len) < 0 && errno != ENOENT)
			_exit(1);
	}
}

/*
 * exit_group(0) with %rbp (ppc64: r1) = @fp for the exit path's walk to
 * follow. On ppc64 the branch after the sc ends the look ahead of the
 * top frame, which then reads the back chain at r1.
 */
static void __attribute__((noreturn)) raw_exit_group(unsigned long fp)
{
#ifdef __x86_64__
	asm volatile("mov %0, %%rbp\n\t"
		     "syscall"
		     : : "r" (fp), "a" (231L), "D" (0L) : "memory");
#else
	register long r3 __asm__("r3") = 0;

	asm volatile("mr 1, %0\n\t"
		     "li 0, 234\n\t"	/* __NR_exit_group */
		     "sc\n\t"
		     "b ."
		     : : "r" (fp), "r" (r3) : "r0", "memory");
#endif
	__builtin_unreachable();
}

#define TRACING		"/sys/kernel/tracing/"
#define FUSE_DIR	"/tmp/unwind-fuse"

/* Whether the trace holds a deferred stack of @pid */
static int traced_stack_of(pid_t pid)
{
	char line[512], tag[32];
	FILE *f = fopen(TRACING "trace", "r");
	int found = 0;

	snprintf(tag, sizeof(tag), "-%d ", pid);
	while (f && !found && fgets(line, sizeof(line), f))
		found = strstr(line, tag) && strstr(line, "<user stack unwind>");
	if (f)
		fclose(f);
	return found;
}

/*
 * Requests pending at exit_group() are walked in do_exit(), where no
 * signal can wake the task any more. A frame pointer into a FUSE page
 * whose read is never answered must end the walk there, not hold the
 * task in the exit path: the child must be gone within 20 s. The
 * request comes from options/userstacktrace_deferred on exit_group's
 * syscall event; the daemon is another process, and killing it ends
 * the wait in any case, so a failure leaves no task behind.
 */
static void test_exit_fault(void)
{
	int fd, st, i, pipefd[2];
	pid_t daemon, pid;
	char opts[128];
	void *map;
	char c;

	check = "exit-no-fault";
	mkdir(FUSE_DIR, 0755);
	fd = open("/dev/fuse", O_RDWR);
	if (fd < 0)
		fail("no /dev/fuse (CONFIG_FUSE_FS)");
	snprintf(opts, sizeof(opts),
		 "fd=%d,rootmode=40000,user_id=0,group_id=0", fd);
	if (mount("unwind-api", FUSE_DIR, "fuse", MS_NOSUID | MS_NODEV, opts))
		fail("mount fuse: %s", strerror(errno));
	daemon = fork();
	if (!daemon)
		fuse_daemon(fd);
	close(fd);
	if (daemon < 0 || pipe(pipefd))
		fail("fork");
	pid = fork();
	if (!pid) {
		/* Above the stack pointer, where the walk goes */
		fd = open(FUSE_DIR "/f", O_RDONLY);
		map = fd < 0 ? MAP_FAILED :
		      mmap((void *)(unmapped_above_stack() & ~4095UL), 4096,
			   PROT_READ, MAP_PRIVATE | MAP_FIXED_NOREPLACE, fd, 0);
		if (map == MAP_FAILED)
			_exit(3);
		close(fd);
		/* Wait for the parent to point the events at us */
		if (read(pipefd[0], &c, 1) != 1)
			_exit(4);
		raw_exit_group((unsigned long)map + 64);
	}
	if (pid < 0)
		fail("fork");
	snprintf(opts, sizeof(opts), "%d", pid);
	if (write_file(TRACING "set_event_pid", opts) ||
	    write_file(TRACING "events/syscalls/sys_enter_exit_group/enable",
		       "1") ||
	    write_file(TRACING "options/userstacktrace_deferred", "1"))
		fail("cannot set up the exit_group event with the option");
	close(open(TRACING "trace", O_WRONLY | O_TRUNC));
	if (write(pipefd[1], "x", 1) != 1)
		fail("pipe");
	for (i = 0; i < 200 && waitpid(pid, &st, WNOHANG) == 0; i++)
		usleep(100000);
	kill(daemon, SIGKILL);
	if (i == 200)
		waitpid(pid, &st, 0);
	waitpid(daemon, NULL, 0);
	write_file(TRACING "options/userstacktrace_deferred", "0");
	write_file(TRACING "events/syscalls/sys_enter_exit_group/enable", "0");
	/* A pid file is emptied by O_TRUNC, not by an empty write */
	close(open(TRACING "set_event_pid", O_WRONLY | O_TRUNC));
	umount2(FUSE_DIR, MNT_DETACH);
	if (i == 200)
		fail("exit_group() with a request pending waited on a FUSE read for 20 s");
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		fail("child status %x", st);
	if (!traced_stack_of(pid))
		fail("no deferred stack of the exiting child in the trace");
	ok();
}

/* A slot's new owner asks in the entry its old owner asked in */
static void test_reuse(void)
{
	int c, d, stale, lost;

	check = "slot-reuse";
	fresh("reuse");
	read_stats(&c, &d, &stale, &lost);
	if (ctl("reuse_end"))
		fail("reuse_end failed");
	read_log();
	if (count(0, 'D', 0, 0) != 2 || find(0, 'D', 0)->ret ||
	    find(0, 'D', 1)->ret)
		fail("a request was refused");
	if (d != 1 || stale)
		fail("the new owner was not called exactly once");
	ok();
}

/*
 * A slot's new owner that does not ask, in the entry its old owner asked
 * in: the old owner's request is dropped, not handed to the new owner.
 */
static void test_reuse_quiet(void)
{
	int c, d, stale, lost;

	check = "slot-reuse-quiet";
	fresh("reuse_quiet");
	read_stats(&c, &d, &stale, &lost);
	if (ctl("reuse_end"))
		fail("reuse_end failed");
	read_log();
	if (count(0, 'D', 0, 0) != 1 || find(0, 'D', 0)->ret)
		fail("the old owner's request was refused");
	if (d)
		fail("a callback was called for the old owner's request");
	ok();
}

/*
 * Requests for two callbacks that take turns in one slot: two processes
 * request for both owners until this one has churned the slot ROUNDS
 * times. Some requests must land (else nothing was tested), and no
 * callback may get the other's.
 */
static void test_churn(int rounds)
{
	int i, c, d, stale, lost, st, nkids = 2, churned;
	volatile long *shared;
	pid_t kids[2];

	check = "register-churn";
	shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		fail("mmap");
	pin(-1);
	clear();
	for (i = 0; i < nkids; i++) {
		kids[i] = fork();
		if (!kids[i]) {
			/*
			 * An fd of its own: writes to a shared one serialize
			 * on its f_pos_lock, so none could land while a churn
			 * write runs.
			 */
			ctl_fd = open(DIR "ctl", O_WRONLY);
			if (ctl_fd < 0)
				_exit(1);
			while (!shared[0]) {
				if (ctl("reqd"))
					_exit(1);
				__atomic_add_fetch(&shared[1], 2, __ATOMIC_RELAXED);
			}
			_exit(0);
		}
		if (kids[i] < 0)
			fail("fork");
	}
	for (churned = 0; churned < rounds; churned += 10)
		if (ctl("churn 10"))
			fail("churn failed");
	shared[0] = 1;
	for (i = 0; i < nkids; i++)
		if (waitpid(kids[i], &st, 0) != kids[i] || st)
			fail("a requester failed");
	read_stats(&c, &d, &stale, &lost);
	printf("churn: %d rounds, %ld requests, %d calls, %d stale\n",
	       churned, shared[1], d, stale);
	munmap((void *)shared, 4096);
	if (stale)
		fail("a callback got a request of the slot's other owner");
	if (!d)
		fail("no request landed while the slot churned");
	ok();
}

int main(int argc, char **argv)
{
	int churn = argc > 1 ? atoi(argv[1]) : 200;

	ctl_fd = open(DIR "ctl", O_WRONLY);
	if (ctl_fd < 0)
		fail("no " DIR "ctl");
	test_one_walk();
	test_cookies();
	test_migrate();
	test_unreg();
	test_timer();
#ifdef __x86_64__
	test_nmi();
#else
	printf("not-here nmi: the test module cannot raise an NMI on powerpc under TCG\n");
#endif
	test_corrupt();
	test_memshort();
#ifdef __x86_64__
	test_compat();
#else
	printf("not-here compat: no little-endian 32-bit powerpc user space\n");
#endif
	test_exec_chain();
	test_exit_fault();
	test_reuse();
	test_reuse_quiet();
	test_churn(churn);
	printf("unwind-api: all checks passed\n");
	return 0;
}
#endif
