// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-probe-net.c - network device transmit and receive, with LTTng's
 * event and field names: the socket buffer's address (hex), its length
 * and the device's name.
 */
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <trace/events/net.h>

#include "../ltt-event.h"

LTT_TRACEPOINT_EVENT(net_dev_xmit, net_dev_xmit,
	LTT_PROTO(struct sk_buff *skb, int rc, struct net_device *dev, unsigned int skb_len),
	LTT_FIELDS(
		ltt_field_integer_hex(u64, skbaddr, (unsigned long)skb)
		ltt_field_integer(u32, len, skb_len)
		ltt_field_integer(s32, rc, rc)
		ltt_field_string(name, dev->name)));

LTT_TRACEPOINT_EVENT(netif_receive_skb, netif_receive_skb,
	LTT_PROTO(struct sk_buff *skb),
	LTT_FIELDS(
		ltt_field_integer_hex(u64, skbaddr, (unsigned long)skb)
		ltt_field_integer(u32, len, skb->len)
		ltt_field_string(name, skb->dev ? skb->dev->name : NULL)));

LTT_PROBE(net, NULL, NULL,
	  LTT_EVENT_DESC(net_dev_xmit),
	  LTT_EVENT_DESC(netif_receive_skb));
