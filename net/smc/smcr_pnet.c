// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: the PNET table and its generic netlink family SMC_PNETID.
 *
 * A PNET ID names a physical network. The administrator says which
 * network devices and which RoCE ports are attached to which network; a
 * connection whose TCP route leaves through a device with a PNET ID then
 * uses only RoCE ports of that PNET ID (smcr_clc.c asks smcr_pnet_of_ndev()
 * and hands the answer to smcr_ib_find_port()). A connection whose device
 * has no entry picks its port as without a table: the port whose GID
 * table has the connection's address.
 *
 * The family is the ABI of Linux 6.1's smc.ko, and every request gets the
 * answer Linux gives, so the tools of either work with both: the same
 * name, version, commands, attributes, policy and permissions, the same
 * errno for the same request, entries dumped in the order they came.
 * What that takes, in Linux's rules:
 *  - network device entries belong to the namespace of the request; RoCE
 *    port entries exist in the initial namespace only, elsewhere the RoCE
 *    half of a request is ignored;
 *  - a device may be named before it exists: its entry waits for it;
 *  - a device (network or RoCE) is named by one entry at most;
 *  - a port of a RoCE device that exists takes the PNET ID of the request
 *    naming it, if it has none yet, even when that request then fails
 *    because the device is in the table already; the PNET ID stays on the
 *    port until entries of that PNET ID are deleted or flushed;
 *  - DEL and GET compare the PNET ID the request has, as it is: only ADD
 *    checks it and makes it upper case.
 */

#include <linux/ctype.h>
#include <linux/if.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <linux/smc.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <net/netlink.h>
#include <rdma/ib_verbs.h>

#include "smcr.h"
#include "smcr_pnet.h"

/* What a dumped entry says for the kind of device it does not name */
#define SMCR_PNET_NO_NAME	"n/a"
#define SMCR_PNET_NO_PORT	0xff

enum smcr_pnet_kind {
	SMCR_PNET_NETDEV,
	SMCR_PNET_IBDEV,
};

/**
 * struct smcr_pnet_entry - a row of the PNET table
 * @list: link in smcr_pnet_list
 * @net: namespace of the request that added it
 * @pnetid: the PNET ID, upper case, NUL padded
 * @kind: enum smcr_pnet_kind: a network device or a RoCE device's port
 * @name: the device's name (a RoCE device's without blanks around it)
 * @ifindex: network device: its index while it exists, else 0
 * @port: RoCE device: the port, 1 to SMCR_PNET_PORTS
 */
struct smcr_pnet_entry {
	struct list_head	list;
	possible_net_t		net;
	u8			pnetid[SMCR_PNETID_LEN];
	u8			kind;
	char			name[IB_DEVICE_NAME_MAX];
	int			ifindex;
	u8			port;
};

/* Two locks, both taken in process context only:
 *  - smcr_pnet_list_lock protects smcr_pnet_list, the entries of every
 *    namespace in the order they were added, and the fields of each
 *    entry. A leaf lock: the netdevice notifier takes it under the RTNL
 *    lock, and nothing is taken under it.
 *  - smcr_pnet_lock serializes the changes of the table, each with the
 *    changes of the RoCE ports' PNET IDs that go with it. smcr_ib_lock
 *    nests inside it, and the RTNL lock inside that (rxe queries a port's
 *    speed under it): so the notifier must not take smcr_pnet_lock.
 */
static DEFINE_MUTEX(smcr_pnet_lock);
static DEFINE_SPINLOCK(smcr_pnet_list_lock);
static LIST_HEAD(smcr_pnet_list);

static struct genl_family smcr_pnet_family;

/* A PNET ID ends at its first NUL or blank */
static bool smcr_pnet_end(u8 c)
{
	return !c || c == ' ';
}

/**
 * smcr_pnet_match() - do two PNET IDs name the same network?
 * @a: a PNET ID, at most SMCR_PNETID_LEN bytes are read
 * @b: another
 *
 * A PNET ID ends after SMCR_PNETID_LEN characters or at its first NUL or
 * blank, whichever comes first.
 *
 * Return: true if @a and @b end at the same place and agree before it.
 */
bool smcr_pnet_match(const u8 *a, const u8 *b)
{
	int i = 0;

	while (i < SMCR_PNETID_LEN && a[i] == b[i] && !smcr_pnet_end(a[i]))
		i++;
	return i == SMCR_PNETID_LEN ||
	       (smcr_pnet_end(a[i]) && smcr_pnet_end(b[i]));
}

/* The PNET ID of an ADD request: blanks around it do not count, what is
 * left must be 1 to SMCR_PNETID_LEN letters or digits (those of the
 * kernel's Latin-1 ctype). Stored upper case and NUL padded in @pnetid.
 */
static bool smcr_pnet_parse_id(const char *s, u8 *pnetid)
{
	size_t len, i;

	s = skip_spaces(s);
	len = strlen(s);
	while (len && isspace(s[len - 1]))
		len--;
	if (!len || len > SMCR_PNETID_LEN)
		return false;
	memset(pnetid, 0, SMCR_PNETID_LEN);
	for (i = 0; i < len; i++) {
		if (!isalnum(s[i]))
			return false;
		pnetid[i] = toupper(s[i]);
	}
	return true;
}

static bool smcr_pnet_in(const struct smcr_pnet_entry *e, const struct net *net)
{
	return net_eq(read_pnet(&e->net), net);
}

/* The entry of @net for the device @name of kind @kind, or NULL */
static struct smcr_pnet_entry *smcr_pnet_find(const struct net *net, u8 kind,
					      const char *name)
{
	struct smcr_pnet_entry *e;

	lockdep_assert_held(&smcr_pnet_list_lock);
	list_for_each_entry(e, &smcr_pnet_list, list) {
		if (smcr_pnet_in(e, net) && e->kind == kind &&
		    !strcmp(e->name, name))
			return e;
	}
	return NULL;
}

static struct smcr_pnet_entry *smcr_pnet_new(struct net *net, const u8 *pnetid,
					     u8 kind, const char *name)
{
	struct smcr_pnet_entry *e = kzalloc(sizeof(*e), GFP_KERNEL);

	if (!e)
		return NULL;
	write_pnet(&e->net, net);
	memcpy(e->pnetid, pnetid, SMCR_PNETID_LEN);
	e->kind = kind;
	strscpy(e->name, name, sizeof(e->name));
	return e;
}

/* ADD, network device half: 0, -EEXIST if the table names the device
 * already, -ENOMEM
 */
static int smcr_pnet_add_netdev(struct net *net, const u8 *pnetid,
				const char *name)
{
	struct smcr_pnet_entry *e = smcr_pnet_new(net, pnetid,
						  SMCR_PNET_NETDEV, name);
	struct net_device *ndev;
	int rc = 0;

	if (!e)
		return -ENOMEM;
	mutex_lock(&smcr_pnet_lock);
	spin_lock(&smcr_pnet_list_lock);
	if (smcr_pnet_find(net, SMCR_PNET_NETDEV, name)) {
		rc = -EEXIST;
		goto out;
	}
	/* a device is listed by name before the notifier hears of it, and
	 * unlisted before it hears of its end: the notifier keeps @ifindex
	 * from here on
	 */
	rcu_read_lock();
	ndev = dev_get_by_name_rcu(net, name);
	if (ndev)
		e->ifindex = ndev->ifindex;
	rcu_read_unlock();
	list_add_tail(&e->list, &smcr_pnet_list);
	e = NULL;
out:
	spin_unlock(&smcr_pnet_list_lock);
	mutex_unlock(&smcr_pnet_lock);
	kfree(e);
	return rc;
}

/* ADD, RoCE half (initial namespace): 0, -EEXIST if the port has a PNET
 * ID already or the table names the device already, -ENOMEM
 */
static int smcr_pnet_add_ibdev(const u8 *pnetid, const char *name, u8 port)
{
	struct smcr_pnet_entry *e = NULL;
	int rc;

	mutex_lock(&smcr_pnet_lock);
	/* a device that exists takes the PNET ID at once, as in Linux */
	rc = smcr_ib_pnet_set(name, port, pnetid);
	if (rc == -EEXIST)
		goto out;
	rc = -ENOMEM;
	e = smcr_pnet_new(&init_net, pnetid, SMCR_PNET_IBDEV, name);
	if (!e)
		goto out;
	e->port = port;
	spin_lock(&smcr_pnet_list_lock);
	rc = -EEXIST;
	if (!smcr_pnet_find(&init_net, SMCR_PNET_IBDEV, name)) {
		list_add_tail(&e->list, &smcr_pnet_list);
		e = NULL;
		rc = 0;
	}
	spin_unlock(&smcr_pnet_list_lock);
out:
	mutex_unlock(&smcr_pnet_lock);
	kfree(e);
	return rc;
}

/* SMC_PNETID_ADD: one entry for the network device, one for the RoCE
 * port, or both. Success if either was added, -EEXIST if neither was
 * (a request naming neither kind of device included).
 */
static int smcr_pnet_add(struct sk_buff *skb, struct genl_info *info)
{
	struct net *net = genl_info_net(info);
	struct nlattr **tb = info->attrs;
	char name[IB_DEVICE_NAME_MAX];
	u8 pnetid[SMCR_PNETID_LEN];
	bool added = false;
	u8 port = 1;
	int rc;

	if (!tb[SMC_PNETID_NAME] ||
	    !smcr_pnet_parse_id(nla_data(tb[SMC_PNETID_NAME]), pnetid))
		return -EINVAL;

	if (tb[SMC_PNETID_ETHNAME]) {
		nla_strscpy(name, tb[SMC_PNETID_ETHNAME], IFNAMSIZ);
		rc = smcr_pnet_add_netdev(net, pnetid, name);
		if (rc && rc != -EEXIST)
			return rc;
		added = !rc;
	}

	if (net_eq(net, &init_net) && tb[SMC_PNETID_IBNAME]) {
		/* an entry for the network device stays even so */
		if (tb[SMC_PNETID_IBPORT]) {
			port = nla_get_u8(tb[SMC_PNETID_IBPORT]);
			if (port < 1 || port > SMCR_PNET_PORTS)
				return -EINVAL;
		}
		nla_strscpy(name, tb[SMC_PNETID_IBNAME], sizeof(name));
		rc = smcr_pnet_add_ibdev(pnetid, strim(name), port);
		if (rc && rc != -EEXIST)
			return rc;
		added |= !rc;
	}
	return added ? 0 : -EEXIST;
}

/* Delete the entries of @net with PNET ID @pnetid (all with NULL); in the
 * initial namespace also take it off the RoCE ports that have it.
 * Returns 0, or -ENOENT when there was nothing to delete.
 */
static int smcr_pnet_remove(struct net *net, const u8 *pnetid)
{
	struct smcr_pnet_entry *e, *tmp;
	bool found = false;

	mutex_lock(&smcr_pnet_lock);
	spin_lock(&smcr_pnet_list_lock);
	list_for_each_entry_safe(e, tmp, &smcr_pnet_list, list) {
		if (!smcr_pnet_in(e, net) ||
		    (pnetid && !smcr_pnet_match(e->pnetid, pnetid)))
			continue;
		list_del(&e->list);
		kfree(e);
		found = true;
	}
	spin_unlock(&smcr_pnet_list_lock);
	if (net_eq(net, &init_net) && smcr_ib_pnet_clear(pnetid))
		found = true;
	mutex_unlock(&smcr_pnet_lock);
	return found ? 0 : -ENOENT;
}

static int smcr_pnet_del(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *nla = info->attrs[SMC_PNETID_NAME];

	if (!nla)
		return -EINVAL;
	return smcr_pnet_remove(genl_info_net(info), nla_data(nla));
}

static int smcr_pnet_flush(struct sk_buff *skb, struct genl_info *info)
{
	smcr_pnet_remove(genl_info_net(info), NULL);
	return 0;
}

/* One entry as a message of command SMC_PNETID_GET: the PNET ID, then a
 * network device name, a RoCE device name and port, each with its
 * placeholder when the entry is of the other kind
 */
static int smcr_pnet_put(struct sk_buff *skb, u32 portid, u32 seq,
			 const struct smcr_pnet_entry *e)
{
	bool netdev = e->kind == SMCR_PNET_NETDEV;
	char pnetid[SMCR_PNETID_LEN + 1];
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &smcr_pnet_family, NLM_F_MULTI,
			  SMC_PNETID_GET);
	if (!hdr)
		return -EMSGSIZE;
	memcpy(pnetid, e->pnetid, SMCR_PNETID_LEN);
	pnetid[SMCR_PNETID_LEN] = '\0';
	if (!nla_put_string(skb, SMC_PNETID_NAME, pnetid) &&
	    !nla_put_string(skb, SMC_PNETID_ETHNAME,
			    netdev ? e->name : SMCR_PNET_NO_NAME) &&
	    !nla_put_string(skb, SMC_PNETID_IBNAME,
			    netdev ? SMCR_PNET_NO_NAME : e->name) &&
	    !nla_put_u8(skb, SMC_PNETID_IBPORT,
			netdev ? SMCR_PNET_NO_PORT : e->port)) {
		genlmsg_end(skb, hdr);
		return 0;
	}
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* SMC_PNETID_GET as a dump: the entries of the requester's namespace;
 * cb->args[0] counts those sent
 */
static int smcr_pnet_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct net *net = sock_net(skb->sk);
	struct smcr_pnet_entry *e;
	long idx = 0;

	spin_lock(&smcr_pnet_list_lock);
	list_for_each_entry(e, &smcr_pnet_list, list) {
		if (!smcr_pnet_in(e, net))
			continue;
		if (idx >= cb->args[0] &&
		    smcr_pnet_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, e))
			break;
		idx++;
	}
	spin_unlock(&smcr_pnet_list_lock);
	cb->args[0] = idx;
	return skb->len;
}

/* SMC_PNETID_GET without NLM_F_DUMP: the entries whose PNET ID matches
 * the request's, as many as one reply holds, sent as a multipart message
 * that a DONE without payload ends (that is what Linux sends)
 */
static int smcr_pnet_get(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *nla = info->attrs[SMC_PNETID_NAME];
	struct net *net = genl_info_net(info);
	struct sk_buff *msg = NULL;
	struct smcr_pnet_entry *e;

	if (nla)
		msg = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return nla ? -ENOMEM : -EINVAL;
	spin_lock(&smcr_pnet_list_lock);
	list_for_each_entry(e, &smcr_pnet_list, list) {
		if (!smcr_pnet_in(e, net) ||
		    !smcr_pnet_match(e->pnetid, nla_data(nla)))
			continue;
		if (smcr_pnet_put(msg, info->snd_portid, info->snd_seq, e))
			break;
	}
	spin_unlock(&smcr_pnet_list_lock);
	if (!nlmsg_put(msg, info->snd_portid, info->snd_seq, NLMSG_DONE, 0,
		       NLM_F_MULTI)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return genlmsg_reply(msg, info);
}

/**
 * smcr_pnet_of_ndev() - the PNET ID the table gives a network device
 * @ndev: the device a TCP connection's route leaves through
 * @pnetid: SMCR_PNETID_LEN bytes, filled when found
 *
 * A device stacked on others (VLAN, bond, ...) is looked up by the device
 * at the bottom of its first lower devices first, in that device's
 * namespace, then by itself.
 *
 * Context: process.
 * Return: true if the table has an entry for the device.
 */
bool smcr_pnet_of_ndev(struct net_device *ndev, u8 *pnetid)
{
	struct net_device *devs[2] = { ndev, ndev };
	struct smcr_pnet_entry *e;
	bool found = false;
	int i;

	rcu_read_lock();
	while (devs[0]->lower_level > 1) {
		struct list_head *iter = &devs[0]->adj_list.lower;
		struct net_device *lower;

		lower = netdev_next_lower_dev_rcu(devs[0], &iter);
		if (!lower)
			break;
		devs[0] = lower;
	}
	dev_hold(devs[0]);
	rcu_read_unlock();

	spin_lock(&smcr_pnet_list_lock);
	for (i = 0; i < ARRAY_SIZE(devs) && !found; i++) {
		list_for_each_entry(e, &smcr_pnet_list, list) {
			if (e->kind != SMCR_PNET_NETDEV || !e->ifindex ||
			    e->ifindex != devs[i]->ifindex ||
			    !smcr_pnet_in(e, dev_net(devs[i])))
				continue;
			memcpy(pnetid, e->pnetid, SMCR_PNETID_LEN);
			found = true;
			break;
		}
	}
	spin_unlock(&smcr_pnet_list_lock);
	dev_put(devs[0]);
	return found;
}

/**
 * smcr_pnet_assert_locked() - lockdep: the caller holds smcr_pnet_lock
 *
 * For smcr_ib.c, whose PNET ID changes the table serializes.
 */
void smcr_pnet_assert_locked(void)
{
	lockdep_assert_held(&smcr_pnet_lock);
}

/**
 * smcr_pnet_ib_added() - give a new RoCE device the PNET IDs of its ports
 * @dev: the device, just listed by smcr_ib.c
 *
 * Context: process; called without smcr_ib_lock.
 */
void smcr_pnet_ib_added(struct smcr_ibdev *dev)
{
	const char *name = dev_name(&dev->ibdev->dev);
	u8 pnetid[SMCR_PNETID_LEN];
	struct smcr_pnet_entry *e;
	u8 port = 0;

	mutex_lock(&smcr_pnet_lock);
	spin_lock(&smcr_pnet_list_lock);
	e = smcr_pnet_find(&init_net, SMCR_PNET_IBDEV, name);
	if (e && e->port <= rdma_end_port(dev->ibdev)) {
		port = e->port;
		memcpy(pnetid, e->pnetid, SMCR_PNETID_LEN);
	}
	spin_unlock(&smcr_pnet_list_lock);
	if (port)
		smcr_ib_pnet_set_dev(dev, port, pnetid);
	mutex_unlock(&smcr_pnet_lock);
}

/* A network device came or went: entries naming it follow it */
static int smcr_pnet_netdev_event(struct notifier_block *nb,
				  unsigned long event, void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct smcr_pnet_entry *e;

	if (event != NETDEV_REGISTER && event != NETDEV_UNREGISTER &&
	    event != NETDEV_REBOOT)
		return NOTIFY_DONE;
	spin_lock(&smcr_pnet_list_lock);
	list_for_each_entry(e, &smcr_pnet_list, list) {
		if (e->kind != SMCR_PNET_NETDEV ||
		    !smcr_pnet_in(e, dev_net(ndev)))
			continue;
		if (event == NETDEV_REGISTER && !e->ifindex &&
		    !strcmp(e->name, ndev->name)) {
			e->ifindex = ndev->ifindex;
			break;
		}
		if (event != NETDEV_REGISTER && e->ifindex == ndev->ifindex) {
			e->ifindex = 0;
			break;
		}
	}
	spin_unlock(&smcr_pnet_list_lock);
	return NOTIFY_OK;
}

static struct notifier_block smcr_pnet_notifier = {
	.notifier_call	= smcr_pnet_netdev_event,
};

/* A namespace that goes takes its entries along */
static void __net_exit smcr_pnet_net_exit(struct net *net)
{
	smcr_pnet_remove(net, NULL);
}

static struct pernet_operations smcr_pnet_net_ops = {
	.exit	= smcr_pnet_net_exit,
};

static const struct nla_policy smcr_pnet_policy[SMC_PNETID_MAX + 1] = {
	[SMC_PNETID_NAME]	= { .type = NLA_NUL_STRING,
				    .len = SMCR_PNETID_LEN },
	[SMC_PNETID_ETHNAME]	= { .type = NLA_NUL_STRING,
				    .len = IFNAMSIZ - 1 },
	[SMC_PNETID_IBNAME]	= { .type = NLA_NUL_STRING,
				    .len = IB_DEVICE_NAME_MAX - 1 },
	[SMC_PNETID_IBPORT]	= { .type = NLA_U8 },
};

/* Linux's checks: attributes of a request are validated leniently (types
 * past the policy and over-long fixed-size values pass), a dump's not at
 * all
 */
#define SMCR_PNET_LENIENT	(GENL_DONT_VALIDATE_STRICT | \
				 GENL_DONT_VALIDATE_DUMP)

/* Reading is open to all, changing needs CAP_NET_ADMIN */
static const struct genl_ops smcr_pnet_ops[] = {
	{
		.cmd		= SMC_PNETID_GET,
		.validate	= SMCR_PNET_LENIENT,
		.doit		= smcr_pnet_get,
		.dumpit		= smcr_pnet_dump,
	},
	{
		.cmd		= SMC_PNETID_ADD,
		.validate	= SMCR_PNET_LENIENT,
		.flags		= GENL_ADMIN_PERM,
		.doit		= smcr_pnet_add,
	},
	{
		.cmd		= SMC_PNETID_DEL,
		.validate	= SMCR_PNET_LENIENT,
		.flags		= GENL_ADMIN_PERM,
		.doit		= smcr_pnet_del,
	},
	{
		.cmd		= SMC_PNETID_FLUSH,
		.validate	= SMCR_PNET_LENIENT,
		.flags		= GENL_ADMIN_PERM,
		.doit		= smcr_pnet_flush,
	},
};

/* Every command of this ABI keeps the legacy header checks */
static struct genl_family smcr_pnet_family __ro_after_init = {
	.module		= THIS_MODULE,
	.ops		= smcr_pnet_ops,
	.n_ops		= ARRAY_SIZE(smcr_pnet_ops),
	.policy		= smcr_pnet_policy,
	.maxattr	= SMC_PNETID_MAX,
	.resv_start_op	= SMC_PNETID_FLUSH + 1,
	.netnsok	= true,
	.name		= SMCR_GENL_FAMILY_NAME,
	.version	= SMCR_GENL_FAMILY_VERSION,
};

/**
 * smcr_pnet_init() - start the PNET table and offer SMC_PNETID
 *
 * Fails with -EEXIST while another module (Linux's smc.ko) has the family.
 *
 * Return: 0 or a negative errno.
 */
int smcr_pnet_init(void)
{
	int err = register_pernet_subsys(&smcr_pnet_net_ops);

	if (err)
		return err;
	err = register_netdevice_notifier(&smcr_pnet_notifier);
	if (!err) {
		err = genl_register_family(&smcr_pnet_family);
		if (!err)
			return 0;
		unregister_netdevice_notifier(&smcr_pnet_notifier);
	}
	unregister_pernet_subsys(&smcr_pnet_net_ops);
	return err;
}

/**
 * smcr_pnet_exit() - withdraw SMC_PNETID and empty the table
 *
 * The RoCE ports lose the PNET IDs it gave them.
 */
void smcr_pnet_exit(void)
{
	genl_unregister_family(&smcr_pnet_family);
	unregister_netdevice_notifier(&smcr_pnet_notifier);
	/* every namespace's entries, the initial one's too */
	unregister_pernet_subsys(&smcr_pnet_net_ops);
}
