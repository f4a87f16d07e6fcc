/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: Shared Memory Communications over RDMA (RFC 7609), out-of-tree.
 *
 * Common definitions of the AF_SMC socket layer.
 */
#ifndef SMCR_H
#define SMCR_H

#include <linux/in.h>
#include <linux/memcontrol.h>
#include <linux/smcr.h>
#include <linux/socket.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <net/inet_sock.h>
#include <net/sock.h>

#include "smcr_lgr.h"
#include "smcr_wire_clc.h"

/* Socket states. The numbers are ABI: sock_diag reports them to user space
 * and Linux's smc_diag uses the same values, so tools read either module.
 * RFC 7609 §4.8 names the closing states; only the ones a fallback
 * connection passes through exist before the RDMA data path does.
 */
enum smcr_state {
	SMCR_ACTIVE		= 1,
	SMCR_INIT		= 2,
	SMCR_CLOSED		= 7,
	SMCR_LISTEN		= 10,
};

/* Wait for each CLC message of the handshake (App. C.1: no wait is open-ended) */
#define SMCR_CLC_WAIT		(6 * HZ)
#define SMCR_CLC_WAIT_SHORT	HZ

/**
 * struct smcr_sock - an AF_SMC socket, or an IPPROTO_SMC one
 * @sk: the socket itself; first member, allocated through smcr_proto, or
 *	smcr_af.c's protos of IPPROTO_SMC
 * @inet: where the kernel has IPPROTO_SMC: the room an inet_sock takes,
 *	whose fields inet_create() sets before our ->init
 * @clcsock: the internal TCP socket. It carries the CLC handshake and, after
 *	fallback, all data. Set once at creation (or when a child is split
 *	off a listener) and released only by smcr_release() or the child
 *	destructor, so holding a reference on @sk keeps it valid; they
 *	release it only after smcr_diag_unlist(), for sock_diag dumps.
 * @clcsk_data_ready: @clcsock's callbacks as TCP set them, restored on detach
 * @clcsk_write_space: see @clcsk_data_ready
 * @clcsk_state_change: see @clcsk_data_ready
 * @clcsk_error_report: see @clcsk_data_ready
 * @listener: for a child still in its handshake, the listening socket it
 *	came from (its handshake work holds a reference); NULL once queued.
 *	Changed under lock_sock() of the child.
 * @accept_list: a child's link in its listener's @accept_q
 * @accept_q: listener: children whose handshake ended, in the order they
 *	ended, waiting for accept() (see smcr_listen.c)
 * @accept_lock: listener: protects @accept_q and the @accept_list of the
 *	queued children. A child is queued only while the listener is in
 *	SMCR_LISTEN, checked under this lock (smcr_accept_enqueue()).
 * @listen_work: listener: takes new TCP connections off @clcsock
 * @handshake_work: child: runs the server side of the CLC handshake
 * @connect_work: finishes a non-blocking connect() in the background
 * @connect_addr: destination of a non-blocking connect(), for @connect_work
 * @connect_addrlen: length of @connect_addr
 * @connect_pending: a non-blocking connect() is still under way
 * @limit_hs: SOL_SMC option SMC_LIMIT_HS: when listening, answer SYNs
 *	without the SMC option while handshakes queue up (smcr_listen.c)
 * @use_fallback: the connection runs over @clcsock (RFC 7609 §3.1)
 * @fallback_reason: why, as a CLC decline code (App. C)
 * @peer_diagnosis: the decline code the peer sent us, if it declined
 * @memcg: the memory cgroup the connection's buffers are charged to, its
 *	creator's (a listener's for its children), referenced; set at
 *	creation, NULL without memory cgroups
 * @conn: SMC-R state of the connection when it did not fall back
 * @close_work: frees a closed SMC-R connection once its peer closed too
 * @close_pending: @close_work holds a reference and waits
 * @abort_work: answers the peer's abort with ours (RFC 7609 §4.8.2)
 * @close_passive: the peer had ended its side when we shut down writing
 * @uncork_work: sends what sendmsg staged when the completion of the last
 *	CDC message in flight found no send slot free for it, or a second
 *	after smcr_cdc_send() found none (smcr_cdc.c); holds a reference on
 *	@sk while pending
 * @diag_node: link in the socket list of sock_diag (smcr_diag.c, whose
 *	smcr_diag_lock protects it)
 *
 * Fields without a lock named above are changed only under lock_sock(@sk).
 */
struct smcr_sock {
#ifdef SMCR_HAVE_IPPROTO_SMC
	union {
		struct sock		sk;
		struct inet_sock	inet;
	};
#else
	struct sock		sk;
#endif
	struct socket		*clcsock;
	void			(*clcsk_data_ready)(struct sock *sk);
	void			(*clcsk_write_space)(struct sock *sk);
	void			(*clcsk_state_change)(struct sock *sk);
	void			(*clcsk_error_report)(struct sock *sk);

	struct smcr_sock	*listener;
	struct list_head	accept_list;
	struct list_head	accept_q;
	spinlock_t		accept_lock;	/* see above */
	struct work_struct	listen_work;
	struct work_struct	handshake_work;

	struct work_struct	connect_work;
	struct sockaddr_storage	connect_addr;
	int			connect_addrlen;
	bool			connect_pending;
	bool			limit_hs;

	bool			use_fallback;
	u32			fallback_reason;
	u32			peer_diagnosis;
	struct mem_cgroup	*memcg;

	struct smcr_conn	conn;
	struct delayed_work	close_work;
	bool			close_pending;
	struct work_struct	abort_work;
	bool			close_passive;
	struct delayed_work	uncork_work;

	struct hlist_node	diag_node;	/* see above */
};

static inline struct smcr_sock *smcr_sk(const struct sock *sk)
{
	return (struct smcr_sock *)sk;
}

/* A listener's child charges its buffers where the listener does */
static inline void smcr_memcg_inherit(struct smcr_sock *child,
				      const struct smcr_sock *lsmc)
{
#ifdef CONFIG_MEMCG
	child->memcg = lsmc->memcg;
	if (child->memcg)
		css_get(&child->memcg->css);
#endif
}

extern struct proto smcr_proto;

/* Whether an SMC socket's TCP connection is of IPv6: by the protocol of an
 * AF_SMC socket, by the family of an IPPROTO_SMC one
 */
static inline bool smcr_sk_v6(const struct sock *sk)
{
	return sk->sk_protocol == SMCPROTO_SMC6 ||
	       (sk->sk_protocol == IPPROTO_SMC && sk->sk_family == AF_INET6);
}

extern struct workqueue_struct *smcr_hs_wq;
extern struct workqueue_struct *smcr_llc_wq;

/* smcr_af.c */
struct sock *smcr_sock_alloc(struct net *net, struct socket *sock,
			     int protocol, int family);
int smcr_af_init(void);
void smcr_af_exit(void);

/* smcr_clcsock.c: the internal TCP socket */
int smcr_clcsock_create(struct smcr_sock *smc);
void smcr_clcsock_attach(struct smcr_sock *smc);
void smcr_clcsock_detach(struct smcr_sock *smc);
void smcr_clcsock_release(struct smcr_sock *smc);
void smcr_clcsock_sync_opts(struct smcr_sock *smc);
void smcr_clcsock_inherit(struct smcr_sock *child, struct smcr_sock *lsmc);
void smcr_fallback(struct smcr_sock *smc, u32 reason, u32 peer_diag);

/* smcr_listen.c */
int smcr_listen(struct socket *sock, int backlog);
int smcr_accept(struct socket *sock, struct socket *newsock, int flags,
		bool kern);
void smcr_listen_stop(struct smcr_sock *lsmc);
void smcr_listen_kick(struct smcr_sock *lsmc);
void smcr_accept_enqueue(struct smcr_sock *child);
bool smcr_accept_q_empty(struct smcr_sock *lsmc);

/* smcr_clc.c: the CLC handshake (RFC 7609 §3.5.1, App. A.2) */
u8 smcr_clc_release(void);
int smcr_clc_client(struct smcr_sock *smc);
int smcr_clc_server(struct smcr_sock *smc);

/* smcr_tx.c, smcr_rx.c: the data path (RFC 7609 §4.4, §4.5) */
int smcr_tx_sendmsg(struct smcr_sock *smc, struct msghdr *msg, size_t len);
int smcr_tx_move(struct smcr_sock *smc, struct smcr_link *from,
		 struct smcr_link *to);
int smcr_rx_recvmsg(struct smcr_sock *smc, struct msghdr *msg, size_t len,
		    int flags);
__poll_t smcr_conn_poll(struct smcr_sock *smc);
bool smcr_rx_atmark(struct smcr_sock *smc);
u32 smcr_tx_space(struct smcr_conn *conn);
void smcr_tx_nospace(struct smcr_sock *smc);
void smcr_tx_write_space(struct smcr_sock *smc);

/* smcr_close.c: closing (RFC 7609 §4.8) */
void smcr_close_init(struct smcr_sock *smc);
void smcr_conn_wake(struct smcr_sock *smc);
int smcr_close_shutdown(struct smcr_sock *smc, int how);
void smcr_close_release(struct smcr_sock *smc);
void smcr_close_peer_abort(struct smcr_sock *smc);

/* smcr_diag.c: sock_diag for AF_SMC */
void smcr_diag_list(struct smcr_sock *smc);
void smcr_diag_unlist(struct smcr_sock *smc);
int smcr_diag_init(void);
void smcr_diag_exit(void);

#endif /* SMCR_H */
