/* errno for the bare-metal runtime: one global (single hart, no threads). */
#ifndef COSIM_ERRNO_H
#define COSIM_ERRNO_H

extern int errno;

#define ENOMEM 12
#define EBADF 9
#define EINVAL 22

#endif
