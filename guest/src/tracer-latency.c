/*
 * tracer-latency: time writes of a tracer name to current_tracer, the
 * latency a user waits for "echo function > current_tracer" and back.
 * Prints one line per round: "<on ns> <off ns>" (CLOCK_MONOTONIC; under
 * QEMU -icount, virtual time).
 * Usage: tracer-latency TRACER ROUNDS   (writes TRACER, then nop)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long long now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long set_tracer(const char *name)
{
	long long t0 = now();
	int fd = open("/sys/kernel/tracing/current_tracer", O_WRONLY | O_TRUNC);

	if (fd < 0 || write(fd, name, strlen(name)) != (ssize_t)strlen(name)) {
		perror(name);
		exit(1);
	}
	close(fd);
	return now() - t0;
}

int main(int argc, char **argv)
{
	int rounds, i;

	if (argc != 3 || (rounds = atoi(argv[2])) < 1) {
		fprintf(stderr, "usage: tracer-latency TRACER ROUNDS\n");
		return 2;
	}
	for (i = 0; i < rounds; i++) {
		long long on = set_tracer(argv[1]);
		long long off = set_tracer("nop");

		printf("%lld %lld\n", on, off);
	}
	return 0;
}
