/*
 * ftn-now.h: the guest helpers' clock: CLOCK_MONOTONIC in nanoseconds
 * (under QEMU -icount, virtual time).
 */
#ifndef FTN_NOW_H
#define FTN_NOW_H
#include <time.h>

static long long now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}
#endif
