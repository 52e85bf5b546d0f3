/*
 * write-time: time writes to one file, as the shell's "echo V > FILE"
 * does them (open, write, close), for make bench's tracer on/off latency.
 * Writes each VALUE in turn, ROUNDS times over, and prints one line per
 * write: "VALUE NS" (CLOCK_MONOTONIC, wall time in the guest). Exits 1 on
 * the first write that fails, naming it.
 * Usage: write-time FILE ROUNDS VALUE...
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftn-now.h"

int main(int argc, char **argv)
{
	int rounds = argc > 2 ? atoi(argv[2]) : 0;
	char buf[256];
	int r, i;

	if (argc < 4 || rounds < 1) {
		fprintf(stderr, "usage: write-time FILE ROUNDS VALUE...\n");
		return 2;
	}
	for (r = 0; r < rounds; r++) {
		for (i = 3; i < argc; i++) {
			int len = snprintf(buf, sizeof(buf), "%s\n", argv[i]);
			long long t0 = now();
			int fd = open(argv[1], O_WRONLY | O_TRUNC);

			if (fd < 0 || write(fd, buf, len) != len || close(fd)) {
				fprintf(stderr, "write-time: %s > %s: %s\n",
					argv[i], argv[1], strerror(errno));
				return 1;
			}
			printf("%s %lld\n", argv[i], now() - t0);
		}
	}
	return 0;
}
