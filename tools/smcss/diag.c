// SPDX-License-Identifier: GPL-2.0
/*
 * smcss: the sock_diag request for AF_SMC sockets and its answers.
 *
 * One SOCK_DIAG_BY_FAMILY dump, the same request IBM's smcss and ss send,
 * answered by whichever SMC module is loaded (ours or Linux's smc_diag).
 * Before asking, the tool makes sure AF_SMC is there: a sock_diag request
 * for a family nobody serves makes the kernel load a module for it, and
 * that would be Linux's smc.ko, which then keeps ours from loading.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <linux/sock_diag.h>

#include <linux/smcr.h>

#include "smcss.h"

/* /proc/net/protocols names every registered protocol: ours registers
 * "SMCR", Linux's smc.ko "SMC" and "SMC6"
 */
static bool smc_loaded(void)
{
	FILE *f = fopen("/proc/net/protocols", "r");
	char line[256], name[32];
	bool found = false;

	if (!f)
		return true;	/* cannot tell: let the kernel answer */
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%31s", name) == 1)
			found = !strcmp(name, "SMCR") || !strcmp(name, "SMC") ||
				!strcmp(name, "SMC6");
	}
	fclose(f);
	return found;
}

static int fail(const char *what, int err)
{
	switch (err) {
	case EPERM:
	case EACCES:
		fprintf(stderr, "%s: %s: permission denied\n", prog, what);
		break;
	case ENOENT:
		fprintf(stderr,
			"%s: %s: the loaded SMC module does not answer sock_diag requests (with Linux's smc.ko: modprobe smc_diag)\n",
			prog, what);
		break;
	default:
		fprintf(stderr, "%s: %s: %s\n", prog, what, strerror(err));
	}
	return 1;
}

/* Copy an attribute's payload; one shorter than expected counts as absent */
static bool take(const struct nlattr *a, void *to, size_t len)
{
	if (a->nla_len < NLA_HDRLEN + len)
		return false;
	memcpy(to, (const char *)a + NLA_HDRLEN, len);
	return true;
}

/* An answer: the fixed part, then the attributes */
static void decode(const struct nlmsghdr *h, struct smc_sock *s)
{
	const char *p = (const char *)NLMSG_DATA(h) + NLMSG_ALIGN(sizeof(s->msg));
	const char *end = (const char *)h + h->nlmsg_len;
	const struct nlattr *a;

	memset(s, 0, sizeof(*s));
	memcpy(&s->msg, NLMSG_DATA(h), sizeof(s->msg));
	for (; p + NLA_HDRLEN <= end; p += NLA_ALIGN(a->nla_len)) {
		a = (const struct nlattr *)p;
		if (a->nla_len < NLA_HDRLEN || p + a->nla_len > end)
			break;
		switch (a->nla_type & NLA_TYPE_MASK) {
		case SMC_DIAG_SHUTDOWN:
			s->has_shutdown = take(a, &s->shutdown,
					       sizeof(s->shutdown));
			break;
		case SMC_DIAG_FALLBACK:
			s->has_fallback = take(a, &s->fallback,
					       sizeof(s->fallback));
			break;
		case SMC_DIAG_CONNINFO:
			s->has_conn = take(a, &s->conn, sizeof(s->conn));
			break;
		case SMC_DIAG_LGRINFO:
			s->has_lgr = take(a, &s->lgr, sizeof(s->lgr));
			break;
		}
	}
}

struct request {
	struct nlmsghdr nlh;
	struct smc_diag_req req;
};

/* Read answers until the end of the dump; 0 or an exit status */
static int read_answers(int fd, __u32 seq,
			void (*each)(const struct smc_sock *s, void *arg),
			void *arg)
{
	static char buf[65536];
	struct smc_sock s;
	struct nlmsghdr *h;
	ssize_t n;
	int len;

	for (;;) {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return fail("receive", errno);
		}
		len = n;
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, len);
		     h = NLMSG_NEXT(h, len)) {
			if (h->nlmsg_seq != seq)
				continue;
			if (h->nlmsg_type == NLMSG_DONE)
				return 0;
			if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(h);

				return fail("sock_diag", -e->error);
			}
			if (h->nlmsg_type != SOCK_DIAG_BY_FAMILY ||
			    h->nlmsg_len < NLMSG_LENGTH(sizeof(s.msg)))
				continue;
			decode(h, &s);
			each(&s, arg);
		}
	}
}

int diag_dump(__u8 ext, void (*each)(const struct smc_sock *s, void *arg),
	      void *arg)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct request r;
	int fd, rc;

	if (!smc_loaded()) {
		fprintf(stderr,
			"%s: no SMC module is loaded (AF_SMC is not registered): load smcr.ko, or Linux's smc and smc_diag\n",
			prog);
		return 1;
	}

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (fd < 0)
		return fail("netlink socket", errno);

	memset(&r, 0, sizeof(r));
	r.nlh.nlmsg_len = sizeof(r);
	r.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	r.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	r.nlh.nlmsg_seq = (__u32)getpid();
	r.req.diag_family = AF_SMC;
	r.req.diag_ext = ext;
	if (sendto(fd, &r, sizeof(r), 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) < 0)
		rc = fail("send", errno);
	else
		rc = read_answers(fd, r.nlh.nlmsg_seq, each, arg);
	close(fd);
	return rc;
}
