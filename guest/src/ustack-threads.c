/*
 * ustack-threads: NTHREADS threads, thread i (from 0) sitting 4 + 3 * i
 * calls deep in deep(), alternating busy loops with getppid() there, so
 * that each thread has a known user stack of its own. Writes "TID DEPTH"
 * for each thread to the file MAP before the loops start.
 * For the deferred callchain tests (guest/tests/perf-defer.sh).
 * Usage: ustack-threads NTHREADS ROUNDS MAP
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>

static volatile unsigned long sink;
static long rounds;
static FILE *map;
static pthread_mutex_t map_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t ready;

static void __attribute__((noinline)) work(long n)
{
	long r, i;

	pthread_barrier_wait(&ready);
	for (r = 0; r < n; r++) {
		for (i = 0; i < 20000; i++)
			sink += i;
		syscall(SYS_getppid);
	}
}

static int __attribute__((noinline)) deep(int n)
{
	if (n <= 0)
		work(rounds);
	else
		deep(n - 1);
	/* Not a tail call: each level keeps its frame */
	return sink != 1;
}

static void *thread(void *arg)
{
	int depth = 4 + 3 * (int)(long)arg;

	pthread_mutex_lock(&map_lock);
	fprintf(map, "%ld %d\n", (long)syscall(SYS_gettid), depth);
	pthread_mutex_unlock(&map_lock);
	deep(depth);
	return NULL;
}

int main(int argc, char **argv)
{
	int i, n = argc > 1 ? atoi(argv[1]) : 3;
	pthread_t *t;

	rounds = argc > 2 ? atol(argv[2]) : 1000;
	if (n < 1 || n > 64 || argc < 4) {
		fprintf(stderr, "usage: ustack-threads NTHREADS ROUNDS MAP\n");
		return 2;
	}
	map = fopen(argv[3], "w");
	t = calloc(n, sizeof(*t));
	if (!map || !t || pthread_barrier_init(&ready, NULL, n))
		return 1;
	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, thread, (void *)(long)i))
			return 1;
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
