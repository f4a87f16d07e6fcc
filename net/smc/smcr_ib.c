// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: the RDMA devices SMC-R can use.
 *
 * An ib_client keeps the list of RoCE devices. For a TCP connection the
 * handshake looks up the port whose GID table has an entry on the
 * connection's network device: that port's GID and MAC go into the CLC
 * messages (RFC 7609 §3.5.1, A.2.2).
 */

#include <linux/etherdevice.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

#include "smcr.h"

/* smcr_ib_lock protects smcr_ibdevs, each device's link count and the MAC
 * part of smcr_system_id
 */
static DEFINE_MUTEX(smcr_ib_lock);
static LIST_HEAD(smcr_ibdevs);
static DECLARE_WAIT_QUEUE_HEAD(smcr_ib_unused);

/* RFC 7609 A.2.1: the peer ID is a 2-byte instance number followed by the
 * MAC of one of the host's RoCE ports, unique for this module instance.
 */
static u8 smcr_system_id[SMCR_CLC_PEER_ID_LEN];
static bool smcr_system_id_mac;

static struct ib_client smcr_ib_client;

/**
 * smcr_ib_system_id() - the peer ID of this host
 * @id: SMCR_CLC_PEER_ID_LEN bytes to fill
 */
void smcr_ib_system_id(u8 *id)
{
	mutex_lock(&smcr_ib_lock);
	memcpy(id, smcr_system_id, SMCR_CLC_PEER_ID_LEN);
	mutex_unlock(&smcr_ib_lock);
}

/* How well @attr serves a connection on @ndev: 0 not at all; the GID of
 * the connection's own address best, a RoCE v1 GID next, any other last
 */
static int smcr_ib_gid_rank(const struct ib_gid_attr *attr,
			    struct net_device *ndev, const u8 *prefer_gid)
{
	struct net_device *gndev;
	bool on_ndev;

	rcu_read_lock();
	gndev = rdma_read_gid_attr_ndev_rcu(attr);
	on_ndev = !IS_ERR(gndev) && gndev == ndev;
	rcu_read_unlock();
	if (!on_ndev)
		return 0;
	if (prefer_gid && !memcmp(attr->gid.raw, prefer_gid, SMCR_CLC_GID_LEN))
		return 3;
	return attr->gid_type == IB_GID_TYPE_ROCE ? 2 : 1;
}

static int smcr_ib_port_lookup(struct ib_device *ibdev, u32 portnum,
			       struct net_device *ndev, const u8 *prefer_gid,
			       struct smcr_ib_port *port)
{
	const struct ib_gid_attr *attr;
	struct ib_port_attr pattr;
	int best = 0, rank, i;

	if (ib_query_port(ibdev, portnum, &pattr) ||
	    pattr.state != IB_PORT_ACTIVE)
		return -ENODEV;

	for (i = 0; i < pattr.gid_tbl_len && best < 3; i++) {
		attr = rdma_get_gid_attr(ibdev, portnum, i);
		if (IS_ERR(attr))
			continue;
		rank = smcr_ib_gid_rank(attr, ndev, prefer_gid);
		if (rank > best) {
			best = rank;
			memcpy(port->gid, attr->gid.raw, sizeof(port->gid));
			port->sgid_index = i;
		}
		rdma_put_gid_attr(attr);
	}
	if (!best)
		return -ENODEV;
	ether_addr_copy(port->mac, ndev->dev_addr);
	port->ifindex = ndev->ifindex;
	port->port = portnum;
	port->mtu = pattr.active_mtu;
	return 0;
}

/**
 * smcr_ib_find_port() - the RoCE port serving a network device
 * @ndev: network device of a TCP connection's route
 * @prefer_gid: GID to pick when the port has it (the connection's own
 *	address), or NULL
 * @port: filled with the device, port, GID and MAC; holds a reference on
 *	the device until smcr_ib_put_port()
 *
 * Context: process.
 * Return: 0, or -ENODEV when no active RoCE port has a GID on @ndev.
 */
int smcr_ib_find_port(struct net_device *ndev, const u8 *prefer_gid,
		      struct smcr_ib_port *port)
{
	struct smcr_ibdev *dev;
	int rc = -ENODEV;
	u32 p;

	mutex_lock(&smcr_ib_lock);
	list_for_each_entry(dev, &smcr_ibdevs, list) {
		rdma_for_each_port(dev->ibdev, p) {
			if (!rdma_protocol_roce(dev->ibdev, p))
				continue;
			rc = smcr_ib_port_lookup(dev->ibdev, p, ndev,
						 prefer_gid, port);
			if (!rc)
				goto found;
		}
	}
	goto out;
found:
	port->dev = dev;
	dev->links++;
	if (!smcr_system_id_mac) {
		memcpy(&smcr_system_id[2], port->mac, ETH_ALEN);
		smcr_system_id_mac = true;
	}
out:
	mutex_unlock(&smcr_ib_lock);
	return rc;
}

/**
 * smcr_ib_put_port() - drop the device reference of a port lookup
 * @port: port filled by smcr_ib_find_port(), or with no device
 */
void smcr_ib_put_port(struct smcr_ib_port *port)
{
	if (!port->dev)
		return;
	mutex_lock(&smcr_ib_lock);
	if (!--port->dev->links)
		wake_up_all(&smcr_ib_unused);
	mutex_unlock(&smcr_ib_lock);
	port->dev = NULL;
}

/**
 * smcr_ib_walk() - visit the RoCE devices, in the order they came
 * @skip: how many to pass over first
 * @fn: called for each device from the @skip-th on, until it returns
 *	non-zero; the device stays while it runs
 * @arg: passed to @fn
 *
 * Context: process; @fn runs under smcr_ib_lock and may sleep.
 * Return: the position (from 0) of the device @fn stopped at, else the
 * number of devices.
 */
int smcr_ib_walk(int skip, int (*fn)(struct smcr_ibdev *dev, void *arg),
		 void *arg)
{
	struct smcr_ibdev *dev;
	int pos = 0;

	mutex_lock(&smcr_ib_lock);
	list_for_each_entry(dev, &smcr_ibdevs, list) {
		if (pos >= skip && fn(dev, arg))
			break;
		pos++;
	}
	mutex_unlock(&smcr_ib_lock);
	return pos;
}

static void smcr_ib_free_dev(struct smcr_ibdev *dev)
{
	if (dev->pd)
		ib_dealloc_pd(dev->pd);
	kfree(dev);
}

static int smcr_ib_add(struct ib_device *ibdev)
{
	struct smcr_ibdev *dev;
	u32 p;

	rdma_for_each_port(ibdev, p)
		if (rdma_protocol_roce(ibdev, p))
			break;
	if (p > rdma_end_port(ibdev))
		return -EOPNOTSUPP;

	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	dev->ibdev = ibdev;
	dev->pd = ib_alloc_pd(ibdev, 0);
	if (IS_ERR(dev->pd)) {
		dev->pd = NULL;
		goto err;
	}
	mutex_lock(&smcr_ib_lock);
	list_add_tail(&dev->list, &smcr_ibdevs);
	mutex_unlock(&smcr_ib_lock);
	ib_set_client_data(ibdev, &smcr_ib_client, dev);
	return 0;
err:
	smcr_ib_free_dev(dev);
	return -ENOMEM;
}

static void smcr_ib_remove(struct ib_device *ibdev, void *data)
{
	struct smcr_ibdev *dev = data;

	mutex_lock(&smcr_ib_lock);
	list_del(&dev->list);
	mutex_unlock(&smcr_ib_lock);
	/* the groups on it go first; connections on them see an abort */
	smcr_lgr_terminate_all(dev);
	wait_event(smcr_ib_unused, !READ_ONCE(dev->links));
	smcr_ib_free_dev(dev);
}

static struct ib_client smcr_ib_client = {
	.name	= "smcr",
	.add	= smcr_ib_add,
	.remove	= smcr_ib_remove,
};

/**
 * smcr_ib_init() - start tracking RoCE devices
 *
 * Return: 0 or a negative errno.
 */
int smcr_ib_init(void)
{
	get_random_bytes(smcr_system_id, 2);
	return ib_register_client(&smcr_ib_client);
}

/**
 * smcr_ib_exit() - stop tracking RoCE devices
 */
void smcr_ib_exit(void)
{
	ib_unregister_client(&smcr_ib_client);
}
