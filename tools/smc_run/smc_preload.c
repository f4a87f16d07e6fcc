// SPDX-License-Identifier: GPL-2.0
/*
 * libsmc-preload.so: run unmodified TCP programs over AF_SMC.
 *
 * Loaded with LD_PRELOAD (see the smc_run wrapper), this library
 * interposes socket() and __socket().  A request for an AF_INET or
 * AF_INET6 stream socket (SOCK_NONBLOCK / SOCK_CLOEXEC allowed) with
 * protocol 0 or IPPROTO_TCP gets socket(AF_SMC, type, SMCPROTO_SMC) or
 * SMCPROTO_SMC6 instead.  When AF_SMC is not available (the kernel says
 * EAFNOSUPPORT, EPROTONOSUPPORT, ESOCKTNOSUPPORT, EINVAL, ENOMEM, ENOBUFS
 * or EPERM/EACCES), the original TCP socket is created, so the program
 * keeps working over plain TCP.  Every other socket passes through.
 *
 * SMC_DEBUG=1 in the environment prints one line per socket to stderr.
 *
 * Limits: only dynamically linked programs that create their sockets
 * through the C library's socket() are affected.  Static binaries (e.g.
 * busybox-static), programs issuing the socket system call directly
 * (Go programs, raw syscall(2) users) and sockets inherited from a parent
 * that did not run under the library stay plain TCP.  Socket options
 * that only exist for TCP work on AF_SMC sockets as far as the kernel's
 * AF_SMC implementation forwards them.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/smcr.h>

typedef int (*socket_fn)(int, int, int);

static socket_fn real_socket(void)
{
	static socket_fn fn;

	if (!fn)
		fn = (socket_fn)dlsym(RTLD_NEXT, "socket");
	return fn;
}

static int debug(void)
{
	static int dbg = -1;
	const char *s;

	if (dbg < 0) {
		s = getenv("SMC_DEBUG");
		dbg = s && *s && strcmp(s, "0");
	}
	return dbg;
}

static int smc_unavailable(int err)
{
	return err == EAFNOSUPPORT || err == EPROTONOSUPPORT ||
	       err == ESOCKTNOSUPPORT || err == EINVAL || err == ENOMEM ||
	       err == ENOBUFS || err == EPERM || err == EACCES;
}

static int smc_socket(int domain, int type, int protocol)
{
	socket_fn sys = real_socket();
	int base = type & ~(SOCK_NONBLOCK | SOCK_CLOEXEC);
	int fd, err;

	if (!sys) {
		errno = EINVAL;
		return -1;
	}
	if ((domain != AF_INET && domain != AF_INET6) || base != SOCK_STREAM ||
	    (protocol != 0 && protocol != IPPROTO_TCP))
		return sys(domain, type, protocol);

	fd = sys(AF_SMC, type,
		 domain == AF_INET6 ? SMCPROTO_SMC6 : SMCPROTO_SMC);
	if (fd >= 0) {
		if (debug())
			fprintf(stderr, "smc_run: fd %d: %s stream socket -> AF_SMC\n",
				fd, domain == AF_INET6 ? "AF_INET6" : "AF_INET");
		return fd;
	}
	err = errno;
	if (!smc_unavailable(err))
		return -1;
	fd = sys(domain, type, protocol);
	if (debug())
		fprintf(stderr, "smc_run: AF_SMC unavailable (%s), fd %d stays TCP\n",
			strerror(err), fd);
	return fd;
}

int socket(int domain, int type, int protocol)
{
	return smc_socket(domain, type, protocol);
}

int __socket(int domain, int type, int protocol)
{
	return smc_socket(domain, type, protocol);
}
