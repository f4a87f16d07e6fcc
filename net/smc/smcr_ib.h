/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: the RoCE devices and ports SMC-R can use (smcr_ib.c), the lowest
 * layer. The layers above hear of devices that come and go through the
 * handlers they give smcr_ib_init().
 */
#ifndef SMCR_IB_H
#define SMCR_IB_H

#include <linux/if_ether.h>
#include <linux/list.h>
#include <rdma/ib_verbs.h>

#include "smcr_pnet.h"
#include "smcr_wire_clc.h"

struct net_device;

/**
 * struct smcr_ibdev - a RoCE device known to SMC-R
 * @list: link in the device list of smcr_ib.c
 * @ibdev: the device, valid until our remove callback returns
 * @links: number of links using the device (smcr_ib_lock)
 * @pnetid: PNET IDs of ports 1 and 2 the PNET table gave (NUL padded,
 *	empty for none; smcr_ib_lock)
 * @events: the device's asynchronous events, registered while it is
 *	listed
 * @port_work: tells the layer above of the ports that failed and those
 *	that came up (struct smcr_ib_handlers), from process context
 * @ports_err: ports reported down and not yet told, a bit per port
 *	number (atomic bit operations)
 * @ports_up: ports reported up, or with a changed GID table, not yet
 *	told (the same)
 */
struct smcr_ibdev {
	struct list_head	list;
	struct ib_device	*ibdev;
	int			links;
	u8			pnetid[SMCR_PNET_PORTS][SMCR_PNETID_LEN];
	struct ib_event_handler	events;
	struct work_struct	port_work;
	unsigned long		ports_err;
	unsigned long		ports_up;
};

/**
 * struct smcr_ib_handlers - what the layers above hear of devices
 * @added: a device, present or new, once it can be found
 * @removing: a device that goes: every link on it must end; called
 *	again every second until the links are gone, with the number of
 *	calls before
 * @port_err: a port of a listed device went down (IB_EVENT_PORT_ERR)
 * @port_up: a port of a listed device became active, or its GID table
 *	changed
 *
 * Each is called in process context.
 */
struct smcr_ib_handlers {
	void (*added)(struct smcr_ibdev *dev);
	void (*removing)(struct smcr_ibdev *dev, unsigned int round);
	void (*port_err)(struct smcr_ibdev *dev, u32 port);
	void (*port_up)(struct smcr_ibdev *dev);
};

/**
 * struct smcr_ib_port - where a connection's RDMA traffic leaves the host
 * @dev: device (NULL when the route has none)
 * @port: port number
 * @sgid_index: index of @gid in the port's GID table
 * @gid: the GID sent in CLC messages
 * @mac: the MAC of the port's network device
 * @ifindex: that network device's interface index
 * @mtu: the port's active MTU (enum ib_mtu)
 * @pnetid: the port's PNET ID when it was found (NUL padded, or empty)
 */
struct smcr_ib_port {
	struct smcr_ibdev	*dev;
	u32			port;
	u8			sgid_index;
	u8			gid[SMCR_CLC_GID_LEN];
	u8			mac[ETH_ALEN];
	int			ifindex;
	enum ib_mtu		mtu;
	u8			pnetid[SMCR_PNETID_LEN];
};

/* smcr_ib.c */
int smcr_ib_find_port(struct net_device *ndev, const u8 *prefer_gid,
		      const u8 *pnetid, struct smcr_ib_port *port);
int smcr_ib_find_alt_port(const struct smcr_ib_port *cur, bool v2,
			  struct smcr_ib_port *alt);
void smcr_ib_get_port(const struct smcr_ib_port *port,
		      struct smcr_ib_port *copy);
void smcr_ib_put_port(struct smcr_ib_port *port);
int smcr_ib_walk(int skip, int (*fn)(struct smcr_ibdev *dev, void *arg),
		 void *arg);
void smcr_ib_system_id(u8 *id);
int smcr_ib_init(const struct smcr_ib_handlers *handlers);
void smcr_ib_exit(void);

#endif /* SMCR_IB_H */
