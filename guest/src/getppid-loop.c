/*
 * getppid-loop: time a tight getppid() loop, the syscall make bench traces.
 * Prints one line per run: nanoseconds per call (CLOCK_MONOTONIC; under
 * QEMU -icount that is virtual time, proportional to guest instructions).
 * Usage: getppid-loop [CALLS [RUNS]]   (defaults 20000 and 5)
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "ftn-now.h"

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000;
	int runs = argc > 2 ? atoi(argv[2]) : 5;
	int i;

	if (n < 1 || runs < 1) {
		fprintf(stderr, "usage: getppid-loop [CALLS [RUNS]]\n");
		return 2;
	}
	for (i = 0; i < runs; i++) {
		long long t0 = now();
		long k;

		for (k = 0; k < n; k++)
			syscall(SYS_getppid);
		printf("%.1f\n", (double)(now() - t0) / n);
	}
	return 0;
}
