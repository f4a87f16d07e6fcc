// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: the RDMA devices SMC-R can use.
 *
 * An ib_client keeps the list of RoCE devices. For a TCP connection the
 * handshake looks up the port whose GID table has an entry on the
 * connection's network device: that port's GID and MAC go into the CLC
 * messages (RFC 7609 §3.5.1, A.2.2). When the PNET table gives the network
 * device a PNET ID, only ports with the same PNET ID qualify, and their
 * GIDs on other network devices too (smcr_pnet.c).
 */

#include <linux/etherdevice.h>
#include <linux/inetdevice.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

#include "smcr_ib.h"

/* smcr_ib_lock protects smcr_ibdevs, each device's link count and PNET
 * IDs, and the MAC part of smcr_system_id. smcr_pnet_lock nests outside.
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

/* Whether @gndev, the network device of a RoCE v2 GID @attr with an IPv4
 * address, has an address in the subnet of @saddr
 */
static bool smcr_ib_gid_in_subnet(const struct ib_gid_attr *attr,
				  struct net_device *gndev, __be32 saddr)
{
	const struct in_ifaddr *ifa;
	struct in_device *in_dev;

	if (attr->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP ||
	    !ipv6_addr_v4mapped((const struct in6_addr *)attr->gid.raw))
		return false;
	in_dev = __in_dev_get_rcu(gndev);
	if (!in_dev)
		return false;
	in_dev_for_each_ifa_rcu(ifa, in_dev)
		if (inet_ifa_match(saddr, ifa))
			return true;
	return false;
}

/* The rank of the GID of the connection's own address on its device */
#define SMCR_IB_RANK_BEST	6

/* How well @attr, a GID of the network device @gndev, serves a connection
 * on @ndev: 0 not at all. On @ndev, the GID of the connection's own
 * address is best, a RoCE v1 GID next, any other last. With @any_ndev (a
 * PNET ID chose the port) the GIDs of other devices serve after those.
 * With @saddr (a further link's port, smcr_ib_find_alt_port()), only a
 * GID in its subnet serves.
 */
static int smcr_ib_gid_rank(const struct ib_gid_attr *attr,
			    struct net_device *gndev,
			    const struct net_device *ndev,
			    const u8 *prefer_gid, bool any_ndev, __be32 saddr)
{
	int rank;

	if (saddr)
		return smcr_ib_gid_in_subnet(attr, gndev, saddr) ?
		       SMCR_IB_RANK_BEST : 0;
	if (gndev != ndev && !any_ndev)
		return 0;
	if (prefer_gid && !memcmp(attr->gid.raw, prefer_gid, SMCR_CLC_GID_LEN))
		rank = 3;
	else
		rank = attr->gid_type == IB_GID_TYPE_ROCE ? 2 : 1;
	return gndev == ndev ? rank + SMCR_IB_RANK_BEST - 3 : rank;
}

static int smcr_ib_port_lookup(struct ib_device *ibdev, u32 portnum,
			       struct net_device *ndev, const u8 *prefer_gid,
			       bool any_ndev, __be32 saddr,
			       struct smcr_ib_port *port)
{
	const struct ib_gid_attr *attr;
	struct net_device *gndev;
	struct ib_port_attr pattr;
	int best = 0, rank, i;

	if (ib_query_port(ibdev, portnum, &pattr) ||
	    pattr.state != IB_PORT_ACTIVE)
		return -ENODEV;

	for (i = 0; i < pattr.gid_tbl_len && best < SMCR_IB_RANK_BEST; i++) {
		attr = rdma_get_gid_attr(ibdev, portnum, i);
		if (IS_ERR(attr))
			continue;
		rcu_read_lock();
		gndev = rdma_read_gid_attr_ndev_rcu(attr);
		rank = IS_ERR(gndev) ? 0 :
		       smcr_ib_gid_rank(attr, gndev, ndev, prefer_gid,
					any_ndev, saddr);
		if (rank > best) {
			best = rank;
			memcpy(port->gid, attr->gid.raw, sizeof(port->gid));
			port->sgid_index = i;
			/* the MAC the peer addresses the GID by */
			ether_addr_copy(port->mac, gndev->dev_addr);
			port->ifindex = gndev->ifindex;
		}
		rcu_read_unlock();
		rdma_put_gid_attr(attr);
	}
	if (!best)
		return -ENODEV;
	port->port = portnum;
	port->mtu = pattr.active_mtu;
	return 0;
}

/* Whether port @p of @dev is on the network @pnetid */
static bool smcr_ib_port_in(const struct smcr_ibdev *dev, u32 p,
			    const u8 *pnetid)
{
	lockdep_assert_held(&smcr_ib_lock);
	return p <= SMCR_PNET_PORTS && dev->pnetid[p - 1][0] &&
	       smcr_pnet_match(dev->pnetid[p - 1], pnetid);
}

/**
 * smcr_ib_find_port() - the RoCE port serving a network device
 * @ndev: network device of a TCP connection's route
 * @prefer_gid: GID to pick when the port has it (the connection's own
 *	address), or NULL
 * @pnetid: the PNET ID the PNET table gives @ndev, or NULL if none: then
 *	only ports with this PNET ID qualify, with a GID on any device
 * @port: filled with the device, port, GID, MAC and PNET ID; holds a
 *	reference on the device until smcr_ib_put_port()
 *
 * Context: process.
 * Return: 0, or -ENODEV when no active RoCE port qualifies.
 */
int smcr_ib_find_port(struct net_device *ndev, const u8 *prefer_gid,
		      const u8 *pnetid, struct smcr_ib_port *port)
{
	struct smcr_ibdev *dev;
	int rc = -ENODEV;
	u32 p;

	mutex_lock(&smcr_ib_lock);
	list_for_each_entry(dev, &smcr_ibdevs, list) {
		rdma_for_each_port(dev->ibdev, p) {
			if (!rdma_protocol_roce(dev->ibdev, p) ||
			    (pnetid && !smcr_ib_port_in(dev, p, pnetid)))
				continue;
			rc = smcr_ib_port_lookup(dev->ibdev, p, ndev,
						 prefer_gid, !!pnetid, 0, port);
			if (!rc)
				goto found;
		}
	}
	goto out;
found:
	port->dev = dev;
	memset(port->pnetid, 0, sizeof(port->pnetid));
	if (p <= SMCR_PNET_PORTS)
		memcpy(port->pnetid, dev->pnetid[p - 1], SMCR_PNETID_LEN);
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
 * smcr_ib_find_alt_port() - a port of another device for a further link
 * @cur: the port of the group's first link
 * @v2: SMC-Rv2 group: the port needs a RoCE v2 GID with an IPv4 address,
 *	on a network device with an address in the subnet of @cur's GID,
 *	as Linux's smc.ko requires of a second link. SMC-Rv1: the same if
 *	@cur's GID is such a one (RoCE v2 devices), else any GID, RoCE v1
 *	first.
 * @alt: filled as by smcr_ib_find_port(), with a device reference
 *
 * The port must be on @cur's physical network: the same PNET ID, or none
 * on both, as Linux compares them.
 *
 * Context: process.
 * Return: 0, or -ENODEV when no other device qualifies.
 */
int smcr_ib_find_alt_port(const struct smcr_ib_port *cur, bool v2,
			  struct smcr_ib_port *alt)
{
	static const u8 none[SMCR_PNETID_LEN];
	struct smcr_ibdev *dev;
	__be32 saddr = 0;
	int rc = -ENODEV;
	const u8 *pnetid;
	u32 p;

	/* an IPv4-mapped GID ends in the address */
	if (v2 || ipv6_addr_v4mapped((const struct in6_addr *)cur->gid))
		memcpy(&saddr, cur->gid + SMCR_CLC_GID_LEN - 4, 4);
	mutex_lock(&smcr_ib_lock);
	list_for_each_entry(dev, &smcr_ibdevs, list) {
		if (dev == cur->dev)
			continue;
		rdma_for_each_port(dev->ibdev, p) {
			pnetid = p <= SMCR_PNET_PORTS ? dev->pnetid[p - 1] :
							none;
			if (!rdma_protocol_roce(dev->ibdev, p) ||
			    !smcr_pnet_match(pnetid, cur->pnetid))
				continue;
			rc = smcr_ib_port_lookup(dev->ibdev, p, NULL, NULL,
						 true, saddr, alt);
			if (!rc)
				goto found;
		}
	}
	goto out;
found:
	alt->dev = dev;
	memcpy(alt->pnetid, pnetid, SMCR_PNETID_LEN);
	dev->links++;
out:
	mutex_unlock(&smcr_ib_lock);
	return rc;
}

/**
 * smcr_ib_get_port() - another reference on a port's device
 * @port: port with a device
 * @copy: becomes a copy of @port holding its own reference
 */
void smcr_ib_get_port(const struct smcr_ib_port *port,
		      struct smcr_ib_port *copy)
{
	mutex_lock(&smcr_ib_lock);
	*copy = *port;
	port->dev->links++;
	mutex_unlock(&smcr_ib_lock);
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

/* Give port @port of @dev the PNET ID @pnetid unless it has one */
static int smcr_ib_pnet_apply(struct smcr_ibdev *dev, u32 port,
			      const u8 *pnetid)
{
	u8 *cur = dev->pnetid[port - 1];

	lockdep_assert_held(&smcr_ib_lock);
	if (cur[0])
		return -EEXIST;
	memcpy(cur, pnetid, SMCR_PNETID_LEN);
	return 0;
}

/**
 * smcr_ib_pnet_set() - give a port of a RoCE device a PNET ID
 * @name: the device's name, or that of its parent device (a PCI function)
 * @port: 1 to SMCR_PNET_PORTS, whether the device has that port or not
 * @pnetid: SMCR_PNETID_LEN bytes
 *
 * Context: process, under smcr_pnet_lock.
 * Return: 0; -EEXIST if the port has a PNET ID already, -ENODEV if no
 * device has that name.
 */
int smcr_ib_pnet_set(const char *name, u32 port, const u8 *pnetid)
{
	struct smcr_ibdev *dev;
	struct device *parent;
	int rc = -ENODEV;

	smcr_pnet_assert_locked();
	mutex_lock(&smcr_ib_lock);
	list_for_each_entry(dev, &smcr_ibdevs, list) {
		parent = dev->ibdev->dev.parent;
		if (strcmp(dev_name(&dev->ibdev->dev), name) &&
		    (!parent ||
		     strncmp(dev_name(parent), name, IB_DEVICE_NAME_MAX - 1)))
			continue;
		rc = smcr_ib_pnet_apply(dev, port, pnetid);
		break;
	}
	mutex_unlock(&smcr_ib_lock);
	return rc;
}

/**
 * smcr_ib_pnet_set_dev() - give a port of a listed RoCE device a PNET ID
 * @dev: the device
 * @port: 1 to SMCR_PNET_PORTS
 * @pnetid: SMCR_PNETID_LEN bytes
 *
 * Context: process, under smcr_pnet_lock.
 * Return: 0, or -EEXIST if the port has a PNET ID already.
 */
int smcr_ib_pnet_set_dev(struct smcr_ibdev *dev, u32 port, const u8 *pnetid)
{
	int rc;

	smcr_pnet_assert_locked();
	mutex_lock(&smcr_ib_lock);
	rc = smcr_ib_pnet_apply(dev, port, pnetid);
	mutex_unlock(&smcr_ib_lock);
	return rc;
}

/**
 * smcr_ib_pnet_clear() - take a PNET ID off the RoCE ports having it
 * @pnetid: the PNET ID, compared by smcr_pnet_match(); NULL for all
 *
 * Context: process, under smcr_pnet_lock.
 * Return: true if a port had it.
 */
bool smcr_ib_pnet_clear(const u8 *pnetid)
{
	struct smcr_ibdev *dev;
	bool found = false;
	int i;

	smcr_pnet_assert_locked();
	mutex_lock(&smcr_ib_lock);
	list_for_each_entry(dev, &smcr_ibdevs, list) {
		for (i = 0; i < SMCR_PNET_PORTS; i++) {
			if (!dev->pnetid[i][0] ||
			    (pnetid && !smcr_pnet_match(dev->pnetid[i], pnetid)))
				continue;
			memset(dev->pnetid[i], 0, SMCR_PNETID_LEN);
			found = true;
		}
	}
	mutex_unlock(&smcr_ib_lock);
	return found;
}

/* The layers above (smcr_ib_init()); set before the client is registered */
static const struct smcr_ib_handlers *smcr_ib_up;

/* A port that went down is told before one that came up: when both are
 * pending, the port went down and came back.
 */
static void smcr_ib_port_work(struct work_struct *work)
{
	struct smcr_ibdev *dev = container_of(work, struct smcr_ibdev,
					      port_work);
	unsigned long err = xchg(&dev->ports_err, 0);
	unsigned int p;

	for_each_set_bit(p, &err, BITS_PER_LONG)
		smcr_ib_up->port_err(dev, p);
	if (xchg(&dev->ports_up, 0))
		smcr_ib_up->port_up(dev);
}

/* A port that went down takes its links with it at once, rather than
 * when TEST LINK goes unanswered (RFC 7609 §3.5.5.4: a failed path fails
 * over). One that became active, or whose GID table changed (an address
 * added to its network device), may give a group the second path it
 * lacks (§3.5.5.4: a link is added back when its path returns).
 * Context: any; the layers above hear of it from a work item.
 */
static void smcr_ib_event(struct ib_event_handler *handler,
			  struct ib_event *event)
{
	struct smcr_ibdev *dev = container_of(handler, struct smcr_ibdev,
					      events);
	u32 p = event->element.port_num;

	if (p >= BITS_PER_LONG)
		return;
	switch (event->event) {
	case IB_EVENT_PORT_ERR:
		set_bit(p, &dev->ports_err);
		break;
	case IB_EVENT_PORT_ACTIVE:
	case IB_EVENT_GID_CHANGE:
		set_bit(p, &dev->ports_up);
		break;
	default:
		return;
	}
	schedule_work(&dev->port_work);
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
	INIT_WORK(&dev->port_work, smcr_ib_port_work);
	INIT_IB_EVENT_HANDLER(&dev->events, ibdev, smcr_ib_event);
	mutex_lock(&smcr_ib_lock);
	list_add_tail(&dev->list, &smcr_ibdevs);
	mutex_unlock(&smcr_ib_lock);
	ib_set_client_data(ibdev, &smcr_ib_client, dev);
	smcr_ib_up->added(dev);
	ib_register_event_handler(&dev->events);
	/* A device that comes is a port that came up: its driver enabled
	 * it (rxe: IB_EVENT_PORT_ACTIVE, and often its GIDs) before its
	 * clients were told of it
	 */
	rdma_for_each_port(ibdev, p)
		if (p < BITS_PER_LONG)
			set_bit(p, &dev->ports_up);
	schedule_work(&dev->port_work);
	return 0;
}

/* Device removal must not wait for applications: the layer above moves
 * the connections on the device to other links or ends their groups
 * (smcr_lgr_dev_removing()), which frees every link on it. Only a
 * handshake that found the device before it was unlisted can still add a
 * group; its waits are bounded, and the next round ends what it created.
 */
static void smcr_ib_remove(struct ib_device *ibdev, void *data)
{
	struct smcr_ibdev *dev = data;
	unsigned int round = 0;

	ib_unregister_event_handler(&dev->events);
	cancel_work_sync(&dev->port_work);
	mutex_lock(&smcr_ib_lock);
	list_del(&dev->list);
	mutex_unlock(&smcr_ib_lock);
	do {
		smcr_ib_up->removing(dev, round++);
	} while (!wait_event_timeout(smcr_ib_unused, !READ_ONCE(dev->links),
				     HZ));
	kfree(dev);
}

static struct ib_client smcr_ib_client = {
	.name	= "smcr",
	.add	= smcr_ib_add,
	.remove	= smcr_ib_remove,
};

/**
 * smcr_ib_init() - start tracking RoCE devices
 * @handlers: what the layers above are told of devices and their ports;
 *	kept until smcr_ib_exit()
 *
 * Return: 0 or a negative errno.
 */
int smcr_ib_init(const struct smcr_ib_handlers *handlers)
{
	smcr_ib_up = handlers;
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
