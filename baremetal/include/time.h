/* time.h stubs for freestanding programs. There is no wall clock: time()
 * always returns 0, so runs are deterministic and Spike and RTL print the same
 * (a program seeding srand(time(NULL)) gets the same numbers every run).
 * clock() counts cycles (mcycle); CLOCKS_PER_SEC is 1000000 as POSIX asks, so
 * clock() / CLOCKS_PER_SEC is nominal seconds at 1 MHz, not real time. */
#ifndef COSIM_TIME_H
#define COSIM_TIME_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef long long time_t;
typedef long clock_t;

#define CLOCKS_PER_SEC 1000000L

time_t time(time_t *t);
clock_t clock(void);

#ifdef __cplusplus
}
#endif

#endif
