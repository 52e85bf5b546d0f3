// SPDX-License-Identifier: GPL-2.0
/*
 * tracefs-fuzz: write structured random input (empty, huge, binary,
 * negative, overflowing, unknown names, valid names, writes split in two)
 * to the tracefs files the series adds or changes and to the stock ones
 * around them, first alone, then from several writers at once while
 * another task switches an instance's tracer and a workload forks, execs
 * and sleeps. Alone, every write the kernel refuses (write or close
 * fails) must leave the file reading as before. Reproducible from SEED.
 *
 * Usage: tracefs-fuzz SEED WRITES [WRITERS]
 * Prints "fuzz seed=S writes=N files=N refused=N partial=N checked=N
 * changed=N" (partial: refused after part of the input was taken)
 * and one line per refused write that changed its file; exits 1 if any.
 * Progress goes to stderr: every 250 tries alone, every 1000 tries of
 * the first concurrent writer, and each writer's end.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define T "/sys/kernel/tracing/"
#define BIG 65536

static unsigned long long rng;

static unsigned int rnd(unsigned int n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return n ? (unsigned int)(rng % n) : 0;
}

/* What a file takes, to make valid-looking input for it */
enum kind { TRACER, FILTER, NUMBER, BOOL, PID, RECURSED };

struct target {
	const char *path;
	enum kind kind;
	int check;	/* reads back what it took: compare after a refusal */
};

static const struct target targets[] = {
	{ "current_tracer", TRACER, 1 },
	{ "set_ftrace_filter", FILTER, 1 },
	{ "set_ftrace_notrace", FILTER, 1 },
	{ "set_graph_function", FILTER, 1 },
	{ "set_graph_notrace", FILTER, 1 },
	{ "set_ftrace_pid", PID, 1 },
	{ "max_graph_depth", NUMBER, 1 },
	{ "tracing_thresh", NUMBER, 1 },
	{ "recursed_functions", RECURSED, 0 },
	{ "options/userstacktrace_deferred", BOOL, 1 },
	{ "options/userstacktrace", BOOL, 1 },
	{ "options/func_stack_trace", BOOL, 1 },
	{ "options/funcgraph-proc", BOOL, 1 },
	{ "options/display-graph", BOOL, 1 },
	{ "instances/fz1/current_tracer", TRACER, 1 },
	{ "instances/fz1/set_ftrace_filter", FILTER, 1 },
	{ "instances/fz1/set_graph_function", FILTER, 1 },
	{ "instances/fz1/options/userstacktrace_deferred", BOOL, 1 },
	{ "instances/fz2/set_ftrace_notrace", FILTER, 1 },
	{ "instances/fz2/set_ftrace_pid", PID, 1 },
};
#define NTARGETS (sizeof(targets) / sizeof(targets[0]))

static const char *const tracers[] = { "nop", "function", "function_graph" };
static const char *const names[] = {
	"vfs_read", "vfs_write", "schedule", "do_sys_openat2", "!vfs_read",
	"ksys_read", "1", "2", "vfs_read:mod:nosuchmodule", "*:mod:nosuch",
};

static int tracer_name(const char *s)
{
	size_t i;

	for (i = 1; i < sizeof(tracers) / sizeof(tracers[0]); i++)
		if (!strncmp(s, tracers[i], strlen(tracers[i])))
			return 1;
	return 0;
}

static char buf[BIG + 64], before[BIG], after[BIG];
/* Each target's content before the run, to leave tracing as it was */
static char *saved[NTARGETS];
static unsigned long writes, refused, partial, checked, changed, files;

/* Make input for a file of kind k; returns its length */
static size_t input(enum kind k)
{
	size_t n, i;

	switch (rnd(12)) {
	case 0:
		return 0;
	case 1:
		return (size_t)sprintf(buf, "%s", rnd(2) ? " \n" : "\n\n\t");
	case 2: /* unknown name */
		return (size_t)sprintf(buf, "no_such_thing_%u", rnd(100000));
	case 3:
		return (size_t)sprintf(buf, "%s", rnd(2) ? "-1" : "-2147483649");
	case 4:
		return (size_t)sprintf(buf, "%s", rnd(2) ?
				       "18446744073709551616" :
				       "999999999999999999999999999999");
	case 5: /* binary */
		n = 1 + rnd(64);
		for (i = 0; i < n; i++)
			buf[i] = (char)rnd(256);
		return n;
	case 6: /* huge */
		n = 4096 + rnd(BIG - 4096);
		/*
		 * One word for a filter: each word of a filter walks every
		 * ftrace record with a symbol lookup (stock), which thousands
		 * of words make minutes long under TCG
		 */
		for (i = 0; i < n; i++)
			buf[i] = rnd(8) || k == FILTER ? 'a' + (char)rnd(26) : ' ';
		return n;
	case 7:
		return (size_t)sprintf(buf, "%%s%%n%%p\\x00");
	default: /* valid-looking for the kind */
		switch (k) {
		case TRACER:
			/* The switcher runs the expensive tracers */
			return (size_t)sprintf(buf, "%s", rnd(4) ? "nop" :
					       tracers[rnd(3)]);
		case FILTER:
			n = (size_t)sprintf(buf, "%s",
				names[rnd(sizeof(names) / sizeof(names[0]))]);
			/* Sometimes a second word, which may be refused */
			if (!rnd(3))
				n += (size_t)sprintf(buf + n, " %s",
					rnd(2) ? "no_such_fn" : names[rnd(
					sizeof(names) / sizeof(names[0]))]);
			return n + (size_t)sprintf(buf + n, "\n");
		case NUMBER:
			return (size_t)sprintf(buf, "%u", rnd(4) ? rnd(10) :
					       rnd(1000000));
		case BOOL:
			return (size_t)sprintf(buf, "%u", rnd(3));
		case PID:
			return (size_t)sprintf(buf, "%u", rnd(3) ? 1 : rnd(70000));
		case RECURSED:
			return (size_t)sprintf(buf, "%u", rnd(2));
		}
	}
	return 0;
}

/*
 * All of it, adding to *taken the bytes the kernel took: a filter file
 * takes one word per write() and returns the bytes of that word, so
 * "a b" is two write() calls, of which the second can be refused after
 * the first was taken (what the shell's echo does too)
 */
static int write_all(int fd, const char *p, size_t n, size_t *taken)
{
	while (n) {
		ssize_t r = write(fd, p, n);

		if (r < 0)
			return -1;
		if (r == 0)
			break;
		p += r;
		n -= (size_t)r;
		if (taken)
			*taken += (size_t)r;
	}
	return 0;
}

/* A word's end for the kernel's parser: its isspace() (0xa0 too) or NUL */
static int word_end(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || c == 0xa0 || !c;
}

/*
 * Whether the first n bytes of p end a word, which a filter file then
 * processed: a call that took only blanks or part of a word changed
 * nothing yet
 */
static int ends_word(const char *p, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (word_end((unsigned char)p[i]) &&
		    !word_end((unsigned char)p[i - 1]))
			return 1;
	return 0;
}

static ssize_t slurp(const char *path, char *to)
{
	ssize_t n, len = 0;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	while (len < BIG - 1 && (n = read(fd, to + len, BIG - 1 - len)) > 0)
		len += n;
	close(fd);
	to[len] = 0;
	return len;
}

/* One write of fresh input to target t; check a refusal when alone */
static void fuzz_one(const struct target *t, int alone)
{
	char path[256];
	size_t len, half = 0, taken = 0;
	int fd, flags, err = 0, cmp, split;

	snprintf(path, sizeof(path), T "%s", t->path);
	len = input(t->kind);
	/*
	 * A tracer started by a fuzzed filter could trace every function,
	 * which TCG cannot afford: the fuzzer starts none (only nop and
	 * names that are not tracers); the switcher starts them on fz0
	 */
	if (t->kind == TRACER && len && strncmp(buf, "nop", 3) &&
	    tracer_name(buf))
		len = (size_t)sprintf(buf, "nop_not_a_tracer");
	/* Every draw before the open, so that a missing file shifts nothing */
	flags = O_WRONLY | (rnd(2) ? O_TRUNC : O_APPEND);
	split = len > 1 && rnd(6) == 0;
	cmp = alone && t->check && slurp(path, before) >= 0;
	fd = open(path, flags);
	if (fd < 0)
		return;
	writes++;
	if (split) {
		/* the same input in two writes */
		half = len / 2;
		if (write_all(fd, buf, half, &taken) < 0)
			err = errno;
		if (!err && write_all(fd, buf + half, len - half, &taken) < 0)
			err = errno;
	} else if (write_all(fd, buf, len, &taken) < 0) {
		err = errno;
	}
	if (close(fd) < 0 && !err)
		err = errno;
	if (!err)
		return;
	refused++;
	/*
	 * Checked: a refusal to a file opened without truncation
	 * (truncating is a change of its own) before any call took input
	 * that could change it: anything, for the files that parse each
	 * write() whole (set_ftrace_pid takes "12" then refuses "3x"), a
	 * whole word for a filter, whose parser carries a word over to the
	 * next call. A refusal after that is counted, not checked: the file
	 * then holds what the taken calls wrote.
	 */
	if (taken && (t->kind != FILTER || ends_word(buf, taken))) {
		partial++;
		return;
	}
	if (!cmp || (flags & O_TRUNC))
		return;
	checked++;
	if (slurp(path, after) >= 0 && strcmp(before, after)) {
		changed++;
		printf("fuzz: refused write (%s) of %zu bytes changed %s\n",
		       strerror(err), len, t->path);
		fflush(stdout);
	}
}

/*
 * Write back what a target read before the run: filters and pids are
 * emptied and their lines written again ("no pid" and the "all functions"
 * banner of an empty filter are what empty files read)
 */
static int restore(const struct target *t, const char *was)
{
	char path[256];
	size_t len;
	int fd, ret = 0;

	if (!was || t->kind == RECURSED)
		return 0;
	snprintf(path, sizeof(path), T "%s", t->path);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return 0;
	len = strlen(was);
	if ((t->kind == FILTER && was[0] == '#') ||
	    (t->kind == PID && !strncmp(was, "no pid", 6)))
		len = 0;
	if (len && write_all(fd, was, len, NULL) < 0) {
		fprintf(stderr, "fuzz: cannot restore %s: %s\n", t->path,
			strerror(errno));
		ret = 1;
	}
	close(fd);
	return ret;
}

/* Switch instance fz0's tracer, narrowly filtered, until killed */
static void switcher(void)
{
	static const char *const seq[] = {
		"function", "nop", "function_graph", "nop",
	};
	unsigned int i = 0;
	int fd;

	/* Without its filter a tracer would trace every function: none */
	fd = open(T "instances/fz0/set_ftrace_filter", O_WRONLY | O_TRUNC);
	if (fd < 0 || write_all(fd, "vfs_read vfs_write\n", 19, NULL) < 0 ||
	    close(fd) < 0) {
		perror("fz0 filter");
		return;
	}
	for (;;) {
		fd = open(T "instances/fz0/current_tracer", O_WRONLY | O_TRUNC);
		if (fd >= 0) {
			if (write_all(fd, seq[i % 4], strlen(seq[i % 4]),
				      NULL) < 0)
				perror("fz0 tracer");
			close(fd);
		}
		i++;
		usleep(200000);
	}
}

/* Fork, exec, sleep and read, until killed */
static void workload(void)
{
	char b[64];
	int fd;

	for (;;) {
		pid_t p = fork();

		if (p == 0) {
			execl("/bin/sh", "sh", "-c", "true", (char *)NULL);
			_exit(127);
		}
		if (p > 0)
			waitpid(p, NULL, 0);
		fd = open("/proc/version", O_RDONLY);
		if (fd >= 0) {
			if (read(fd, b, sizeof(b)) < 0)
				perror("read");
			close(fd);
		}
		usleep(10000);
	}
}

static pid_t spawn(void (*fn)(void))
{
	pid_t p = fork();

	if (p == 0) {
		/* Gone with the fuzzer, whatever ends it */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		fn();
		_exit(0);
	}
	return p;
}

int main(int argc, char **argv)
{
	unsigned long long seed;
	unsigned long n, i;
	unsigned int w, nw;
	pid_t sw, wl, kids[16];
	unsigned long cw, cr, cp;
	struct stat st;
	size_t k;
	int status, bad = 0, pfd[2];
	time_t t0;
	FILE *res;

	if (argc < 3) {
		fprintf(stderr, "usage: tracefs-fuzz SEED WRITES [WRITERS]\n");
		return 2;
	}
	seed = strtoull(argv[1], NULL, 0);
	n = strtoul(argv[2], NULL, 0);
	nw = argc > 3 ? (unsigned int)atoi(argv[3]) : 3;
	if (nw < 1 || nw > 16)
		nw = 3;
	for (k = 0; k < 3; k++) {
		snprintf(buf, sizeof(buf), T "instances/fz%zu", k);
		if (mkdir(buf, 0755) && errno != EEXIST) {
			perror(buf);
			return 2;
		}
	}
	for (k = 0; k < NTARGETS; k++) {
		snprintf(buf, sizeof(buf), T "%s", targets[k].path);
		files += stat(buf, &st) == 0;
		if (slurp(buf, before) >= 0)
			saved[k] = strdup(before);
	}

	/* Alone: every refusal is checked */
	rng = seed * 2 + 1;
	t0 = time(NULL);
	for (i = 0; i < n / 2; i++) {
		fuzz_one(&targets[rnd(NTARGETS)], 1);
		if (i % 250 == 249)
			fprintf(stderr, "fuzz: %lu tries alone in %ld s\n",
				i + 1, (long)(time(NULL) - t0));
	}

	/* Together, with the switcher and the workload */
	t0 = time(NULL);
	sw = spawn(switcher);
	wl = spawn(workload);
	/* After those two, which must not hold its write end */
	if (pipe(pfd)) {
		perror("pipe");
		return 2;
	}
	for (w = 0; w < nw; w++) {
		kids[w] = fork();
		if (kids[w] == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			rng = (seed * 2 + 1) * 0x9e3779b97f4a7c15ULL + w * 2 + 2;
			writes = refused = partial = 0;
			for (i = 0; i < (n - n / 2) / nw; i++) {
				fuzz_one(&targets[rnd(NTARGETS)], 0);
				/*
				 * Writer 0 reports for itself only, as a
				 * sample (the others show at their end,
				 * below): a slow guest and a hung one look
				 * alike on a silent console.
				 */
				if (w == 0 && i % 1000 == 999)
					fprintf(stderr,
						"fuzz: %lu of %lu tries by writer 0 of %u together in %ld s\n",
						i + 1, (n - n / 2) / nw, nw,
						(long)(time(NULL) - t0));
			}
			dprintf(pfd[1], "%u %lu %lu %lu\n", w, writes, refused,
				partial);
			_exit(0);
		}
	}
	close(pfd[1]);
	res = fdopen(pfd[0], "r");
	/*
	 * Each writer's end, as it comes: a silent console then points at
	 * the writers still at work.
	 */
	while (res && fscanf(res, "%u %lu %lu %lu", &w, &cw, &cr, &cp) == 4) {
		fprintf(stderr, "fuzz: writer %u of %u done after %ld s: %lu writes\n",
			w, nw, (long)(time(NULL) - t0), cw);
		writes += cw;
		refused += cr;
		partial += cp;
	}
	for (w = 0; w < nw; w++) {
		if (kids[w] < 0 || waitpid(kids[w], &status, 0) < 0 ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			bad = 1;
	}
	if (sw > 0) {
		kill(sw, SIGKILL);
		waitpid(sw, NULL, 0);
	}
	if (wl > 0) {
		kill(wl, SIGKILL);
		waitpid(wl, NULL, 0);
	}
	if (sw < 0 || wl < 0)
		bad = 1;

	/* Leave tracing as it was */
	/* In reverse: an instance's filters before its tracer */
	for (k = NTARGETS; k-- > 0;)
		bad |= restore(&targets[k], saved[k]);
	for (k = 0; k < 3; k++) {
		int fd;

		snprintf(buf, sizeof(buf), T "instances/fz%zu/current_tracer", k);
		fd = open(buf, O_WRONLY | O_TRUNC);
		if (fd >= 0) {
			if (write(fd, "nop", 3) < 0)
				bad = 1;
			close(fd);
		}
		snprintf(buf, sizeof(buf), T "instances/fz%zu", k);
		if (rmdir(buf)) {
			perror(buf);
			bad = 1;
		}
	}
	printf("fuzz seed=%llu writes=%lu files=%lu refused=%lu partial=%lu checked=%lu changed=%lu\n",
	       seed, writes, files, refused, partial, checked, changed);
	return bad || changed;
}
