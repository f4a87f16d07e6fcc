// SPDX-License-Identifier: GPL-2.0
/*
 * smcss: the sockets as a table, a line each, or as one JSON object.
 *
 * Text: a header, then per socket its state, owner's uid, inode, local
 * and peer address, interface and mode, for a connection that fell back
 * to TCP the decline code and what it means (and the peer's, if it sent
 * one). -R and -D add indented lines of "key value" pairs below a socket;
 * the JSON members have the same keys: -R's in an object "link", -D's
 * cursors and sizes in an object "conn", the rest in the socket's.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "smcss.h"

/* An address and port: "10.0.0.1:7000", "[fd00::1]:7000", "*:7000" for
 * the unspecified address of either family (the message does not say
 * which family a socket has, only what its addresses look like)
 */
struct endpoint {
	char addr[INET6_ADDRSTRLEN];
	unsigned int port;
	bool v6;
};

static bool is_zero(const __u32 *w, int n)
{
	while (n--)
		if (w[n])
			return false;
	return true;
}

static void endpoint(struct endpoint *e, const __u32 *addr,
		     __u16 port_be, bool v6)
{
	e->port = ntohs(port_be);
	e->v6 = false;
	if (is_zero(addr, 4)) {
		strcpy(e->addr, "*");
		return;
	}
	e->v6 = v6;
	inet_ntop(v6 ? AF_INET6 : AF_INET, addr, e->addr, sizeof(e->addr));
}

static void endpoints(const struct smc_diag_msg *m, struct endpoint *local,
		      struct endpoint *peer)
{
	/* an IPv4 socket fills only the first word of each address */
	bool v6 = !is_zero(m->id.idiag_src + 1, 3) ||
		  !is_zero(m->id.idiag_dst + 1, 3);

	endpoint(local, m->id.idiag_src, m->id.idiag_sport, v6);
	endpoint(peer, m->id.idiag_dst, m->id.idiag_dport, v6);
}

static const char *endpoint_text(const struct endpoint *e, char *buf,
				 size_t len)
{
	snprintf(buf, len, e->v6 ? "[%s]:%u" : "%s:%u", e->addr, e->port);
	return buf;
}

static const char *hex32(__u32 v, char *buf, size_t len)
{
	snprintf(buf, len, "0x%08x", v);
	return buf;
}

static uint64_t cookie(const struct smc_diag_msg *m)
{
	return (uint64_t)m->id.idiag_cookie[1] << 32 | m->id.idiag_cookie[0];
}

static const char *role_name(__u8 role)
{
	return role ? "server" : "client";
}

/* A GID as the kernel wrote it: text, NUL-terminated within its field */
static void gid_text(char *to, const __u8 *gid, size_t len)
{
	memcpy(to, gid, len);
	to[len] = '\0';
}

/* The cursors of SMC_DIAG_CONNINFO, in the order they are printed */
struct cursor_field {
	const char *key;
	size_t off;
};

#define CURSOR(f) { #f, offsetof(struct smc_diag_conninfo, f) }
static const struct cursor_field cursors[] = {
	CURSOR(rx_prod), CURSOR(rx_cons), CURSOR(tx_prod), CURSOR(tx_cons),
	CURSOR(tx_prep), CURSOR(tx_sent), CURSOR(tx_fin),
};

static const struct smc_diag_cursor *cursor_at(const struct smc_diag_conninfo *c,
					       unsigned int i)
{
	return (const void *)((const char *)c + cursors[i].off);
}

static const char header[] = "%-16s %6s %9s %-24s %-24s %4s %s\n";

void show_begin(const struct view *v, struct json *j)
{
	if (v->json) {
		json_open(j, NULL, '{');
		json_open(j, "sockets", '[');
		return;
	}
	printf(header, "State", "UID", "Inode", "Local Address",
	       "Peer Address", "Intf", "Mode");
}

void show_end(const struct view *v, struct json *j)
{
	if (v->json) {
		json_close(j, ']');
		json_close(j, '}');
	}
	fflush(stdout);
}

static void text_sock(const struct view *v, const struct smc_sock *s)
{
	const struct smc_diag_msg *m = &s->msg;
	const struct smc_diag_conninfo *c = &s->conn;
	struct endpoint local, peer;
	char l[64], p[64], h1[16], h2[16], gid[41], pgid[41];
	unsigned int i;

	endpoints(m, &local, &peer);
	printf("%-16s %6u %9llu %-24s %-24s %4u %s", state_name(m->diag_state),
	       m->diag_uid, (unsigned long long)m->diag_inode,
	       endpoint_text(&local, l, sizeof(l)),
	       endpoint_text(&peer, p, sizeof(p)), m->id.idiag_if,
	       mode_name(m->diag_mode));
	if (m->diag_mode == SMC_DIAG_MODE_FALLBACK_TCP && s->has_fallback) {
		printf(" %s (%s)", hex32(s->fallback.reason, h1, sizeof(h1)),
		       decline_text(s->fallback.reason));
		if (s->fallback.peer_diagnosis)
			printf(" peer %s (%s)",
			       hex32(s->fallback.peer_diagnosis, h2, sizeof(h2)),
			       decline_text(s->fallback.peer_diagnosis));
	}
	printf("\n");

	if (v->link && s->has_lgr) {
		gid_text(gid, s->lgr.lnk[0].gid, sizeof(s->lgr.lnk[0].gid));
		gid_text(pgid, s->lgr.lnk[0].peer_gid,
			 sizeof(s->lgr.lnk[0].peer_gid));
		printf("    link_id %u ib_dev %.*s ib_port %u role %s\n",
		       s->lgr.lnk[0].link_id,
		       (int)sizeof(s->lgr.lnk[0].ibname), s->lgr.lnk[0].ibname,
		       s->lgr.lnk[0].ibport, role_name(s->lgr.role));
		printf("    gid %s peer_gid %s\n", gid, pgid);
	}
	if (!v->detail)
		return;
	printf("    shutdown %u cookie %llu fallback_reason %s peer_diagnosis %s\n",
	       s->shutdown, (unsigned long long)cookie(m),
	       hex32(s->fallback.reason, h1, sizeof(h1)),
	       hex32(s->fallback.peer_diagnosis, h2, sizeof(h2)));
	if (!s->has_conn)
		return;
	printf("    token %u sndbuf_size %u rmbe_size %u peer_rmbe_size %u\n",
	       c->token, c->sndbuf_size, c->rmbe_size, c->peer_rmbe_size);
	printf("    rx_prod_flags %u rx_conn_state_flags %u", c->rx_prod_flags,
	       c->rx_conn_state_flags);
	printf(" tx_prod_flags %u tx_conn_state_flags %u\n", c->tx_prod_flags,
	       c->tx_conn_state_flags);
	printf("   ");
	for (i = 0; i < ARRAY_SIZE(cursors); i++)
		printf(" %s %u:%u", cursors[i].key, cursor_at(c, i)->wrap,
		       cursor_at(c, i)->count);
	printf("\n");
}

static void json_sock(const struct view *v, struct json *j,
		      const struct smc_sock *s)
{
	const struct smc_diag_msg *m = &s->msg;
	const struct smc_diag_conninfo *c = &s->conn;
	struct endpoint local, peer;
	char h[16], gid[41];
	unsigned int i;

	endpoints(m, &local, &peer);
	json_open(j, NULL, '{');
	json_str(j, "state", state_name(m->diag_state));
	json_u64(j, "uid", m->diag_uid);
	json_u64(j, "inode", m->diag_inode);
	json_str(j, "local_addr", local.addr);
	json_u64(j, "local_port", local.port);
	json_str(j, "peer_addr", peer.addr);
	json_u64(j, "peer_port", peer.port);
	json_u64(j, "intf", m->id.idiag_if);
	json_str(j, "mode", mode_name(m->diag_mode));
	json_u64(j, "shutdown", s->shutdown);
	json_u64(j, "cookie", cookie(m));
	json_str(j, "fallback_reason", hex32(s->fallback.reason, h, sizeof(h)));
	json_str(j, "fallback_text", decline_text(s->fallback.reason));
	json_str(j, "peer_diagnosis",
		 hex32(s->fallback.peer_diagnosis, h, sizeof(h)));
	json_str(j, "peer_diagnosis_text",
		 decline_text(s->fallback.peer_diagnosis));

	if (v->link && s->has_lgr) {
		json_open(j, "link", '{');
		json_u64(j, "link_id", s->lgr.lnk[0].link_id);
		memcpy(gid, s->lgr.lnk[0].ibname, sizeof(gid) - 1);
		gid[sizeof(gid) - 1] = '\0';
		json_str(j, "ib_dev", gid);
		json_u64(j, "ib_port", s->lgr.lnk[0].ibport);
		json_str(j, "role", role_name(s->lgr.role));
		gid_text(gid, s->lgr.lnk[0].gid, sizeof(s->lgr.lnk[0].gid));
		json_str(j, "gid", gid);
		gid_text(gid, s->lgr.lnk[0].peer_gid,
			 sizeof(s->lgr.lnk[0].peer_gid));
		json_str(j, "peer_gid", gid);
		json_close(j, '}');
	}
	if (v->detail && s->has_conn) {
		json_open(j, "conn", '{');
		json_u64(j, "token", c->token);
		json_u64(j, "sndbuf_size", c->sndbuf_size);
		json_u64(j, "rmbe_size", c->rmbe_size);
		json_u64(j, "peer_rmbe_size", c->peer_rmbe_size);
		json_u64(j, "rx_prod_flags", c->rx_prod_flags);
		json_u64(j, "rx_conn_state_flags", c->rx_conn_state_flags);
		json_u64(j, "tx_prod_flags", c->tx_prod_flags);
		json_u64(j, "tx_conn_state_flags", c->tx_conn_state_flags);
		for (i = 0; i < ARRAY_SIZE(cursors); i++) {
			json_open(j, cursors[i].key, '{');
			json_u64(j, "wrap", cursor_at(c, i)->wrap);
			json_u64(j, "count", cursor_at(c, i)->count);
			json_close(j, '}');
		}
		json_close(j, '}');
	}
	json_close(j, '}');
}

void show_sock(const struct view *v, struct json *j, const struct smc_sock *s)
{
	if (v->json)
		json_sock(v, j, s);
	else
		text_sock(v, s);
}
