// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: the table of user-defined Enterprise IDs (UEIDs).
 *
 * Two SMC v2 peers only talk when they share an EID: each Proposal lists
 * the local UEIDs and the server picks one it knows too. The administrator
 * sets the table over generic netlink (smcr_netlink.c). As with Linux's
 * smc.ko there is one table for the whole system, not one per network
 * namespace, and its rules and error codes are those of Linux 6.1, so
 * the same requests get the same answers from either module.
 */

#include <linux/bug.h>
#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/lockdep.h>
#include <linux/minmax.h>
#include <linux/smc.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "smcr_ueid.h"

static_assert(SMCR_EID_LEN == SMC_MAX_EID_LEN);
static_assert(SMCR_MAX_UEID == SMC_MAX_UEID);

/* smcr_ueid_lock protects smcr_ueids and smcr_ueid_cnt. The first
 * smcr_ueid_cnt rows of smcr_ueids are in use, in the order they were
 * added; a removal closes the gap. A leaf lock, taken in process context
 * only: callers may hold other locks, nothing else is taken under it.
 */
static DEFINE_SPINLOCK(smcr_ueid_lock);
static u8 smcr_ueids[SMCR_MAX_UEID][SMCR_EID_LEN];
static int smcr_ueid_cnt;

/* A character an EID may start with: an upper case letter or a digit.
 * The kernel's ctype is Latin-1, so À..Þ count as upper case letters.
 */
static bool smcr_eid_lead_char(u8 c)
{
	return isupper(c) || isdigit(c);
}

/* An EID is 1 to 32 characters of A-Z, 0-9, '.' and '-', starting with a
 * letter or digit, padded with white space to SMCR_EID_LEN bytes. The
 * padding is kept as it came: EIDs compare byte for byte.
 */
static bool smcr_ueid_valid(const u8 *eid)
{
	int len = SMCR_EID_LEN, i;

	while (len > 0 && isspace(eid[len - 1]))
		len--;
	if (!len || !smcr_eid_lead_char(eid[0]))
		return false;
	for (i = 1; i < len; i++) {
		if (!smcr_eid_lead_char(eid[i]) && eid[i] != '.' &&
		    eid[i] != '-')
			return false;
	}
	return true;
}

/* Row of @eid in the table, or -1 */
static int smcr_ueid_index(const u8 *eid)
{
	int i;

	lockdep_assert_held(&smcr_ueid_lock);
	for (i = 0; i < smcr_ueid_cnt; i++) {
		if (!memcmp(smcr_ueids[i], eid, SMCR_EID_LEN))
			return i;
	}
	return -1;
}

/**
 * smcr_ueid_count() - number of entries in the UEID table
 *
 * Return: 0 to SMCR_MAX_UEID.
 */
int smcr_ueid_count(void)
{
	int cnt;

	spin_lock(&smcr_ueid_lock);
	cnt = smcr_ueid_cnt;
	spin_unlock(&smcr_ueid_lock);
	return cnt;
}

/**
 * smcr_ueid_get_all() - copy the UEID table
 * @eids: room for @max EIDs of SMCR_EID_LEN bytes each
 * @max: how many @eids can hold
 *
 * Copies the first @max entries in table order (the order they were
 * added), as they go on the wire: SMCR_EID_LEN bytes, not NUL terminated.
 *
 * Return: the number of EIDs copied.
 */
int smcr_ueid_get_all(u8 (*eids)[SMCR_EID_LEN], int max)
{
	int n;

	spin_lock(&smcr_ueid_lock);
	n = clamp(max, 0, smcr_ueid_cnt);
	memcpy(eids, smcr_ueids, n * SMCR_EID_LEN);
	spin_unlock(&smcr_ueid_lock);
	return n;
}

/**
 * smcr_ueid_find() - is an EID in the UEID table?
 * @eid: SMCR_EID_LEN bytes as on the wire (blank padded, no NUL)
 *
 * Return: true if the table holds @eid byte for byte.
 */
bool smcr_ueid_find(const u8 *eid)
{
	bool found;

	spin_lock(&smcr_ueid_lock);
	found = smcr_ueid_index(eid) >= 0;
	spin_unlock(&smcr_ueid_lock);
	return found;
}

/**
 * smcr_ueid_add() - add an EID at the end of the UEID table
 * @eid: SMCR_EID_LEN bytes, padded with blanks
 *
 * Return: 0; -EINVAL if @eid is not a valid EID, -ERANGE if the table is
 * full (checked before duplicates, as Linux does), -EEXIST if @eid is
 * already in it.
 */
int smcr_ueid_add(const u8 *eid)
{
	int rc = 0;

	if (!smcr_ueid_valid(eid))
		return -EINVAL;

	spin_lock(&smcr_ueid_lock);
	if (smcr_ueid_cnt == SMCR_MAX_UEID)
		rc = -ERANGE;
	else if (smcr_ueid_index(eid) >= 0)
		rc = -EEXIST;
	else
		memcpy(smcr_ueids[smcr_ueid_cnt++], eid, SMCR_EID_LEN);
	spin_unlock(&smcr_ueid_lock);
	return rc;
}

/**
 * smcr_ueid_remove() - take an EID out of the UEID table
 * @eid: SMCR_EID_LEN bytes, compared byte for byte (no validity check)
 *
 * The entries after it move up one row and keep their order.
 *
 * Return: 0, or -ENOENT if @eid is not in the table.
 */
int smcr_ueid_remove(const u8 *eid)
{
	int i;

	spin_lock(&smcr_ueid_lock);
	i = smcr_ueid_index(eid);
	if (i >= 0) {
		smcr_ueid_cnt--;
		memmove(smcr_ueids[i], smcr_ueids[i + 1],
			(smcr_ueid_cnt - i) * SMCR_EID_LEN);
		memset(smcr_ueids[smcr_ueid_cnt], 0, SMCR_EID_LEN);
	}
	spin_unlock(&smcr_ueid_lock);
	return i >= 0 ? 0 : -ENOENT;
}

/**
 * smcr_ueid_flush() - empty the UEID table
 */
void smcr_ueid_flush(void)
{
	spin_lock(&smcr_ueid_lock);
	memset(smcr_ueids, 0, sizeof(smcr_ueids));
	smcr_ueid_cnt = 0;
	spin_unlock(&smcr_ueid_lock);
}
