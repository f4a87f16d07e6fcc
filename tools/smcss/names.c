// SPDX-License-Identifier: GPL-2.0
/*
 * smcss: names of socket states and modes, and what the decline codes of
 * RFC 7609 Appendix C (with the ones Linux added) say, in a few words.
 */
#include <stdio.h>

#include "smcss.h"

struct code_name {
	unsigned int code;
	const char *name;
};

/* diag_state: the numbers Linux's SMC sockets use */
static const struct code_name states[] = {
	{ 1, "ACTIVE" },
	{ 2, "INIT" },
	{ 7, "CLOSED" },
	{ 10, "LISTEN" },
	{ 20, "PEERCLOSEWAIT1" },
	{ 21, "PEERCLOSEWAIT2" },
	{ 22, "APPCLOSEWAIT1" },
	{ 23, "APPCLOSEWAIT2" },
	{ 24, "APPFINCLOSEWAIT" },
	{ 25, "PEERFINCLOSEWAIT" },
	{ 26, "PEERABORTWAIT" },
	{ 27, "PROCESSABORT" },
};

static const struct code_name declines[] = {
	{ 0x01010000, "out of memory" },
	{ 0x02010000, "timeout waiting for CONFIRM LINK" },
	{ 0x02020000, "timeout waiting for ADD LINK" },
	{ 0x03000000, "configuration error" },
	{ 0x03010000, "peer did not offer SMC" },
	{ 0x03010001, "SMC is off on this host" },
	{ 0x03020000, "IPsec in use" },
	{ 0x03030000, "no SMC device" },
	{ 0x03030001, "no SMC-D device" },
	{ 0x03030002, "no SMC-R device" },
	{ 0x03030003, "no ISM device for SMC-Dv2" },
	{ 0x03030004, "no v2 extension" },
	{ 0x03030005, "no SMC-Dv2 extension" },
	{ 0x03030006, "no system EID" },
	{ 0x03030007, "no SMC-Dv2 device" },
	{ 0x03030008, "no common user EID" },
	{ 0x03040000, "SMC mode not supported" },
	{ 0x03050000, "RMB eye catcher" },
	{ 0x03060000, "socket option not supported" },
	{ 0x03070000, "peer in another IP subnet" },
	{ 0x03080000, "VLAN lookup failed" },
	{ 0x03090000, "ISM VLAN setup failed" },
	{ 0x030a0000, "no active link" },
	{ 0x030b0000, "server's link not found" },
	{ 0x030c0000, "SMC version mismatch" },
	{ 0x030d0000, "too many DMBs" },
	{ 0x030e0000, "no route for SMC-Rv2" },
	{ 0x030f0000, "SMC-Rv2 indirect route clash" },
	{ 0x04000000, "link group out of sync" },
	{ 0x05000000, "peer declined" },
	{ 0x09990000, "internal error" },
	{ 0x09990001, "rkey handling failed" },
	{ 0x09990002, "link not ready" },
	{ 0x09990003, "buffer registration failed" },
};

static const char *lookup(const struct code_name *t, size_t n,
			  unsigned int code)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].code == code)
			return t[i].name;
	return NULL;
}

const char *state_name(unsigned int state)
{
	static char other[24];
	const char *name = lookup(states, ARRAY_SIZE(states), state);

	if (name)
		return name;
	snprintf(other, sizeof(other), "STATE_%u", state);
	return other;
}

const char *mode_name(unsigned int mode)
{
	switch (mode) {
	case SMC_DIAG_MODE_SMCR:
		return "SMCR";
	case SMC_DIAG_MODE_FALLBACK_TCP:
		return "TCP";
	case SMC_DIAG_MODE_SMCD:
		return "SMCD";
	}
	return "?";
}

/* What a decline code means, "" for none and for codes it does not know */
const char *decline_text(__u32 code)
{
	const char *name = lookup(declines, ARRAY_SIZE(declines), code);

	return name ? name : "";
}
