/* Heap allocation and exit for the bare-metal runtime. The heap lives in DDR. */
#ifndef COSIM_STDLIB_H
#define COSIM_STDLIB_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
/* rand(): the C standard's example LCG, see src/stdlib.c for the formula. */
#define RAND_MAX 32767

void *malloc(size_t size);
void free(void *ptr);
void *calloc(size_t count, size_t size);
void *realloc(void *ptr, size_t size);
void exit(int code) __attribute__((noreturn));
void abort(void) __attribute__((noreturn));
int abs(int x);
long labs(long x);
long long llabs(long long x);
int rand(void);
void srand(unsigned seed);
int atoi(const char *s);
long atol(const char *s);
long long atoll(const char *s);

#ifdef __cplusplus
}
#endif

#endif
