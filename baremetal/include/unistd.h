/* POSIX-flavoured subset of the bare-metal runtime. */
#ifndef COSIM_UNISTD_H
#define COSIM_UNISTD_H

#include "cosim.h"

#define STDOUT_FILENO 1
#define STDERR_FILENO 2

#endif
