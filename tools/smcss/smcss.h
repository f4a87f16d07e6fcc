/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcss: what the parts of the tool share. smcss.c reads the command line
 * and picks the sockets; diag.c asks the kernel (sock_diag) and decodes
 * its answers; show.c prints them as a table or as JSON; json.c writes
 * JSON; names.c names states and decline codes.
 */
#ifndef SMCSS_H
#define SMCSS_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/smc_diag.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

extern const char *prog;

/**
 * struct smc_sock - one AF_SMC socket as the kernel reported it
 * @msg: the fixed part of the answer
 * @shutdown: SMC_DIAG_SHUTDOWN, when @has_shutdown
 * @fallback: SMC_DIAG_FALLBACK, when @has_fallback
 * @conn: SMC_DIAG_CONNINFO, when @has_conn
 * @lgr: SMC_DIAG_LGRINFO, when @has_lgr
 */
struct smc_sock {
	struct smc_diag_msg msg;
	__u8 shutdown;
	struct smc_diag_fallback fallback;
	struct smc_diag_conninfo conn;
	struct smc_diag_lgrinfo lgr;
	bool has_shutdown;
	bool has_fallback;
	bool has_conn;
	bool has_lgr;
};

/* diag.c: dump every AF_SMC socket of this network namespace, asking for
 * the extensions in @ext (bits 1 << (SMC_DIAG_x - 1)); @each sees them in
 * the kernel's order. Returns 0, or an exit status after saying why.
 */
int diag_dump(__u8 ext, void (*each)(const struct smc_sock *s, void *arg),
	      void *arg);

/* json.c: a JSON document written as it goes, objects and arrays nested */
struct json {
	int depth;
	bool first[8];
};

void json_open(struct json *j, const char *key, char bracket);
void json_close(struct json *j, char bracket);
void json_u64(struct json *j, const char *key, uint64_t val);
void json_str(struct json *j, const char *key, const char *s);

/* show.c: what the options ask to print */
struct view {
	bool json;
	bool link;	/* -R */
	bool detail;	/* -D */
};

void show_begin(const struct view *v, struct json *j);
void show_sock(const struct view *v, struct json *j, const struct smc_sock *s);
void show_end(const struct view *v, struct json *j);

/* names.c */
const char *state_name(unsigned int state);
const char *mode_name(unsigned int mode);
const char *decline_text(__u32 code);

#endif
