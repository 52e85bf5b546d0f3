/*
 * perf-defer-raw: check the kernel's deferred user callchains through the
 * perf ring buffer alone, without perf's own parser. Its own copy of the
 * ABI (upstream 6.19's values): attr bits defer_callchain and defer_output
 * right after sigtrap, PERF_RECORD_CALLCHAIN_DEFERRED = 22, the callchain
 * marker PERF_CONTEXT_USER_DEFERRED = -640 followed by the cookie.
 * Modes:
 *   self ROUNDS   sample itself (cpu-clock every 200 us) 8 calls deep in
 *                 deep(): every sample with the marker must have one
 *                 record of its cookie and thread, of 8 deep() frames or
 *                 more, and none its own synchronous user part. The
 *                 sampling event has defer_callchain; the records go to
 *                 a dummy event with defer_output, as in perf record
 *   cpu ROUNDS    as self, with events of CPU 0 (pid -1; the dummy has no
 *                 side-band bits but defer_output) while pinned there:
 *                 the records reach an event that is not the task's
 *   exit          a child sampled at its exit_group() (tracepoint
 *                 syscalls:sys_enter_exit_group, period 1): its record
 *                 comes from the exit path, before the memory map goes
 *   close ROUNDS  a sample at sys_enter_close of the event's own close():
 *                 the callback runs after the event is freed (a use
 *                 after free shows on KASAN's console; here: no crash)
 *   nospc         every deferred unwind slot is taken (by tracefs
 *                 instances) before perf's first such event: the open
 *                 must fail with ENOSPC
 *   disable       a sample in the ioctl that disables its event (tracepoint
 *                 syscalls:sys_enter_ioctl, period 1, both bits): its
 *                 record reaches the dummy event, still enabled, and not
 *                 the disabled event (documented); every other ioctl's
 *                 sample has its record in both
 *   off ROUNDS    an event without defer_callchain: a synchronous user
 *                 part (PERF_CONTEXT_USER), no marker, no record
 * Prints "perf-defer-raw MODE samples=N marked=N records=N matched=N
 * minframes=N lost=N" and exits 0 when the mode's checks hold.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define CALLCHAIN_DEFERRED	22
#define CONTEXT_USER_DEFERRED	((uint64_t)-640)
/* bit positions in the flags word of perf_event_attr, after sigtrap */
#define ATTR_FLAGS_OFFSET	40
#define ATTR_SIGTRAP_BIT	37
#define PAGES			64
#define MAX_COOKIES		65536

static volatile unsigned long sink;
static long page;

struct seen {
	uint64_t cookie;
	uint64_t id;
	uint32_t tid;
	int matched;
};
static struct seen marks[MAX_COOKIES], recs[MAX_COOKIES];
static int nmarks, nrecs;
static long samples, records, matched, lost, unmatched_records, syncuser;
static long minframes = -1, deeprecs;
static uint32_t only_tid;

/* attr bits: defer_callchain, defer_output */
#define DEFER_CALLCHAIN		1
#define DEFER_OUTPUT		2
#define DEFER_BOTH		(DEFER_CALLCHAIN | DEFER_OUTPUT)

static void set_defer(struct perf_event_attr *attr, int bits)
{
	uint64_t *flags = (uint64_t *)((char *)attr + ATTR_FLAGS_OFFSET);

	*flags |= (uint64_t)bits << (ATTR_SIGTRAP_BIT + 1);
}

static int open_event_cpu(pid_t pid, int cpu, uint32_t type,
			  uint64_t config, uint64_t period, int bits)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.sample_period = period;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			   PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_IDENTIFIER;
	attr.sample_id_all = 1;
	attr.disabled = 1;
	attr.exclude_callchain_kernel = 0;
	set_defer(&attr, bits);
	return syscall(SYS_perf_event_open, &attr, pid, cpu, -1, 0);
}

static int open_event(pid_t pid, uint32_t type, uint64_t config,
		      uint64_t period, int bits)
{
	return open_event_cpu(pid, -1, type, config, period, bits);
}

/* sample_id trailer: pid, tid, time, identifier */
#define SAMPLE_ID_SIZE	(8 + 8 + 8)

static void record(const unsigned char *p, size_t size)
{
	const struct perf_event_header *h = (const void *)p;
	const uint64_t *w = (const void *)(h + 1);

	if (h->type == PERF_RECORD_SAMPLE) {
		/* identifier, pid/tid, time, nr, ips */
		uint32_t tid = ((const uint32_t *)&w[1])[1];
		uint64_t nr = w[3], i;
		const uint64_t *ip = &w[4];

		if (only_tid && tid != only_tid)
			return;
		samples++;
		for (i = 0; i < nr; i++)
			if (ip[i] == PERF_CONTEXT_USER)
				syncuser++;
		if (nr >= 2 && ip[nr - 2] == CONTEXT_USER_DEFERRED &&
		    nmarks < MAX_COOKIES) {
			marks[nmarks].cookie = ip[nr - 1];
			marks[nmarks].tid = tid;
			nmarks++;
		}
	} else if (h->type == CALLCHAIN_DEFERRED) {
		uint64_t cookie = w[0], nr = w[1];
		const uint32_t *id = (const void *)&w[2 + nr];

		if (only_tid && id[1] != only_tid)
			return;
		records++;
		if (size != sizeof(*h) + 16 + nr * 8 + SAMPLE_ID_SIZE ||
		    h->misc != PERF_RECORD_MISC_USER) {
			fprintf(stderr, "bad record: size %zu nr %llu misc %u\n",
				size, (unsigned long long)nr, h->misc);
			exit(1);
		}
		if (nrecs < MAX_COOKIES) {
			recs[nrecs].cookie = cookie;
			/* sample_id: pid, tid, time, identifier */
			recs[nrecs].id = w[2 + nr + 2];
			recs[nrecs].tid = id[1];
			nrecs++;
		}
		if (minframes < 0 || (long)nr < minframes)
			minframes = nr;
		deeprecs += nr >= 10;
	} else if (h->type == PERF_RECORD_LOST) {
		lost += w[1];
	}
}

static void drain(struct perf_event_mmap_page *mp)
{
	unsigned char *data = (unsigned char *)mp + page;
	uint64_t size = (uint64_t)PAGES * page;
	uint64_t head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = mp->data_tail;
	static unsigned char buf[65536];

	while (tail < head) {
		struct perf_event_header h;
		uint64_t off = tail % size, i;

		for (i = 0; i < sizeof(h); i++)
			((unsigned char *)&h)[i] = data[(off + i) % size];
		if (h.size < sizeof(h) || h.size > sizeof(buf))
			exit(3);
		for (i = 0; i < h.size; i++)
			buf[i] = data[(off + i) % size];
		record(buf, h.size);
		tail += h.size;
	}
	__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
}

static struct perf_event_mmap_page *map_event(int fd)
{
	void *p = mmap(NULL, (PAGES + 1) * page, PROT_READ | PROT_WRITE,
		       MAP_SHARED, fd, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	return p;
}

static struct perf_event_mmap_page *mp_self;

/*
 * An enabled dummy event with defer_output only, writing into FD's ring
 * buffer (mapped already), as perf record's tracking event; its
 * identifier in *ID. The fd, or -1.
 */
static int dummy_output(pid_t pid, int cpu, int fd, uint64_t *id)
{
	int out = open_event_cpu(pid, cpu, PERF_TYPE_SOFTWARE,
				 PERF_COUNT_SW_DUMMY, 0, DEFER_OUTPUT);

	if (out < 0 || ioctl(out, PERF_EVENT_IOC_SET_OUTPUT, fd) ||
	    ioctl(out, PERF_EVENT_IOC_ID, id)) {
		perror("dummy event");
		return -1;
	}
	ioctl(out, PERF_EVENT_IOC_ENABLE, 0);
	return out;
}

static void __attribute__((noinline)) work(long rounds)
{
	long r, i;

	for (r = 0; r < rounds; r++) {
		for (i = 0; i < 20000; i++)
			sink += i;
		syscall(SYS_getppid);
		if (mp_self && !(r % 16))
			drain(mp_self);
	}
}

static int __attribute__((noinline)) deep(int n, long rounds)
{
	if (n <= 0)
		work(rounds);
	else
		deep(n - 1, rounds);
	return sink != 1;
}

static int __attribute__((noinline)) deep_exit(int n)
{
	if (n <= 0)
		syscall(SYS_exit_group, 0);
	else
		deep_exit(n - 1);
	return sink != 1;
}

static uint64_t tracepoint(const char *name)
{
	char path[256], buf[32];
	int fd, n;

	snprintf(path, sizeof(path),
		 "/sys/kernel/tracing/events/syscalls/%s/id", name);
	fd = open(path, O_RDONLY);
	if (fd < 0 || (n = read(fd, buf, sizeof(buf) - 1)) <= 0) {
		perror(path);
		exit(77);
	}
	buf[n] = 0;
	close(fd);
	return strtoull(buf, NULL, 10);
}

/*
 * Join samples and records by thread and cookie, in either order: a sample
 * taken in the same entry after its record went out (in the callback's
 * own output, on the rest of the way out) comes after it
 */
static void join(void)
{
	int i, j, hit;

	for (j = 0; j < nrecs; j++) {
		for (hit = 0, i = 0; i < nmarks; i++) {
			if (marks[i].cookie == recs[j].cookie &&
			    marks[i].tid == recs[j].tid) {
				hit = 1;
				if (!marks[i].matched)
					matched++;
				marks[i].matched = 1;
			}
		}
		unmatched_records += !hit;
	}
}

static void report(const char *mode)
{
	join();
	printf("perf-defer-raw %s samples=%ld marked=%d records=%ld matched=%ld minframes=%ld deep=%ld lost=%ld syncuser=%ld\n",
	       mode, samples, nmarks, records, matched, minframes, deeprecs,
	       lost, syncuser);
}

static int mode_self(long rounds, int defer, int percpu)
{
	pid_t pid = percpu ? -1 : 0;
	int cpu = percpu ? 0 : -1;
	int fd, out = -1, j, k, foreign = 0, dups = 0;
	uint64_t out_id = 0;
	cpu_set_t set;

	if (percpu) {
		CPU_ZERO(&set);
		CPU_SET(0, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			return 1;
		only_tid = syscall(SYS_gettid);
	}
	fd = open_event_cpu(pid, cpu, PERF_TYPE_SOFTWARE,
			    PERF_COUNT_SW_CPU_CLOCK, 200000,
			    defer ? DEFER_CALLCHAIN : 0);
	if (fd < 0) {
		perror("perf_event_open");
		return errno == EINVAL ? 77 : 1;
	}
	mp_self = map_event(fd);
	if (defer) {
		/*
		 * The records go to a dummy event that is enabled first and
		 * disabled last, as perf record's tracking event: a sample
		 * taken in the ioctl that disables the sampling event asks
		 * for a record, and an event that is off when the task
		 * returns gets none (documented)
		 */
		out = dummy_output(pid, cpu, fd, &out_id);
		if (out < 0)
			return 1;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	deep(8, rounds);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (out >= 0)
		ioctl(out, PERF_EVENT_IOC_DISABLE, 0);
	drain(mp_self);
	report(!defer ? "off" : percpu ? "cpu" : "self");
	if (!defer)
		return samples >= 10 && !nmarks && !records &&
		       syncuser == samples ? 0 : 1;
	/* only the dummy has defer_output; one record per thread and cookie */
	for (j = 0; j < nrecs; j++) {
		foreign += recs[j].id != out_id;
		for (k = j + 1; k < nrecs; k++)
			dups += recs[j].cookie == recs[k].cookie &&
				recs[j].tid == recs[k].tid;
	}
	if (foreign || dups)
		printf("perf-defer-raw %s: %d records not from the dummy, %d twice\n",
		       percpu ? "cpu" : "self", foreign, dups);
	/*
	 * Every sample is taken in this task in user mode or in a syscall:
	 * each has the marker, no synchronous user part, and its record; all
	 * records but those of the sampling event's enable and disable
	 * ioctls (from main()) hold the 9 deep() frames, work() and more
	 */
	return samples >= 10 && nmarks == samples && !syncuser &&
	       matched == nmarks && !unmatched_records && !lost &&
	       !foreign && !dups &&
	       deeprecs >= records - 2 ? 0 : 1;
}

static int mode_exit(void)
{
	int go[2], fd;
	pid_t pid;
	struct perf_event_mmap_page *mp;
	char c = 0;

	if (pipe(go))
		return 1;
	pid = fork();
	if (!pid) {
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		deep_exit(6);
		_exit(1);
	}
	fd = open_event(pid, PERF_TYPE_TRACEPOINT,
			tracepoint("sys_enter_exit_group"), 1, DEFER_BOTH);
	if (fd < 0) {
		perror("perf_event_open");
		return 1;
	}
	mp = map_event(fd);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	if (write(go[1], &c, 1) != 1)
		return 1;
	waitpid(pid, NULL, 0);
	drain(mp);
	report("exit");
	/* deep_exit() 7 times, main, the libc start code */
	return samples == 1 && nmarks == 1 && matched == 1 &&
	       minframes >= 9 ? 0 : 1;
}

static int mode_close(long rounds)
{
	uint64_t id = tracepoint("sys_enter_close");
	long r;

	for (r = 0; r < rounds; r++) {
		int fd = open_event(0, PERF_TYPE_TRACEPOINT, id, 1,
				    DEFER_BOTH);

		if (fd < 0) {
			perror("perf_event_open");
			return 1;
		}
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		/* the sample at this close() asks; the event is gone after */
		close(fd);
	}
	report("close");
	return 0;
}

/* how many records of the event with identifier ID hold COOKIE */
static int recs_of(uint64_t id, uint64_t cookie)
{
	int j, n = 0;

	for (j = 0; j < nrecs; j++)
		n += recs[j].id == id && recs[j].cookie == cookie;
	return n;
}

static void __attribute__((noinline)) ioctls(int n)
{
	while (n--)
		ioctl(-1, 0, 0);	/* EBADF: a sample at sys_enter_ioctl */
}

static int __attribute__((noinline)) deep_ioctls(int n)
{
	if (n <= 0)
		ioctls(3);
	else
		deep_ioctls(n - 1);
	return sink != 1;
}

static int mode_disable(void)
{
	int fd, out, i, bad = 0;
	uint64_t id, out_id;

	fd = open_event(0, PERF_TYPE_TRACEPOINT, tracepoint("sys_enter_ioctl"),
			1, DEFER_BOTH);
	if (fd < 0) {
		perror("perf_event_open");
		return 1;
	}
	mp_self = map_event(fd);
	out = dummy_output(0, -1, fd, &out_id);
	if (out < 0 || ioctl(fd, PERF_EVENT_IOC_ID, &id))
		return 1;
	/* (its sys_enter_ioctl comes before the event is on: no sample) */
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	deep_ioctls(8);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(out, PERF_EVENT_IOC_DISABLE, 0);
	drain(mp_self);
	report("disable");
	/*
	 * three ioctls 8 calls deep, then the disabling one; the records of
	 * the three, in the event and in the dummy, hold the deep frames
	 */
	if (samples != 4 || nmarks != 4 || matched != 4 || lost ||
	    deeprecs < 6)
		return 1;
	for (i = 0; i < nmarks; i++) {
		int last = i == nmarks - 1;
		int mine = recs_of(id, marks[i].cookie);
		int dummy = recs_of(out_id, marks[i].cookie);

		printf("perf-defer-raw disable: sample %d: %d record(s) in its event, %d in the dummy\n",
		       i, mine, dummy);
		bad |= dummy != 1 || mine != !last;
	}
	return bad;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "self";
	long rounds = argc > 2 ? atol(argv[2]) : 200;

	page = sysconf(_SC_PAGESIZE);
	if (rounds <= 0) {
		fprintf(stderr, "perf-defer-raw: ROUNDS must be > 0\n");
		return 2;
	}
	if (!strcmp(mode, "self"))
		return mode_self(rounds, 1, 0);
	if (!strcmp(mode, "cpu"))
		return mode_self(rounds, 1, 1);
	if (!strcmp(mode, "off"))
		return mode_self(rounds, 0, 0);
	if (!strcmp(mode, "exit"))
		return mode_exit();
	if (!strcmp(mode, "disable"))
		return mode_disable();
	if (!strcmp(mode, "close"))
		return mode_close(rounds);
	if (!strcmp(mode, "nospc")) {
		int fd = open_event(0, PERF_TYPE_SOFTWARE,
				    PERF_COUNT_SW_CPU_CLOCK, 200000, DEFER_BOTH);

		printf("perf-defer-raw nospc fd=%d errno=%d\n", fd,
		       fd < 0 ? errno : 0);
		return fd < 0 && errno == ENOSPC ? 0 : 1;
	}
	fprintf(stderr, "usage: perf-defer-raw self|cpu|off|exit|close|disable|nospc [ROUNDS]\n");
	return 2;
}
