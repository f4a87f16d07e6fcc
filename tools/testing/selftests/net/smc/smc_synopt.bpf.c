// SPDX-License-Identifier: GPL-2.0
/*
 * smc_synopt: a sock_ops program that puts SMC's experimental TCP option
 * (RFC 7609 section 3.1: kind 254, length 6, magic "SMCR" in EBCDIC) into
 * the SYN and SYN-ACK of every TCP connection of its cgroup. A plain TCP
 * program there (smc_hostile.py) then looks like an SMC-capable peer to
 * the kernel on the other side, and speaks CLC as it pleases.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define TCP_FLAG_SYN	0x02

SEC("sockops")
int smc_synopt(struct bpf_sock_ops *skops)
{
	__u8 opt[6] = { 254, 6, 0xe2, 0xd4, 0xc3, 0xd9 };

	switch (skops->op) {
	case BPF_SOCK_OPS_TCP_CONNECT_CB:
	case BPF_SOCK_OPS_TCP_LISTEN_CB:
		bpf_sock_ops_cb_flags_set(skops, skops->bpf_sock_ops_cb_flags |
					  BPF_SOCK_OPS_WRITE_HDR_OPT_CB_FLAG);
		break;
	case BPF_SOCK_OPS_HDR_OPT_LEN_CB:
		if (skops->skb_tcp_flags & TCP_FLAG_SYN)
			bpf_reserve_hdr_opt(skops, sizeof(opt), 0);
		break;
	case BPF_SOCK_OPS_WRITE_HDR_OPT_CB:
		if (skops->skb_tcp_flags & TCP_FLAG_SYN)
			bpf_store_hdr_opt(skops, opt, sizeof(opt), 0);
		break;
	}
	return 1;
}

char _license[] SEC("license") = "GPL";
