// SPDX-License-Identifier: GPL-2.0
/*
 * A stand-in congestion control for the registration test: Reno under the
 * name given by the parameter "name", so that a test can hold one of
 * tcp_bbr_a's names before tcp_bbr_a loads.
 */
#include <linux/module.h>
#include <net/tcp.h>

static char *name = "bbq";
module_param(name, charp, 0444);
MODULE_PARM_DESC(name, "congestion control name to register");

static struct tcp_congestion_ops dummy_cc = {
	.ssthresh	= tcp_reno_ssthresh,
	.cong_avoid	= tcp_reno_cong_avoid,
	.undo_cwnd	= tcp_reno_undo_cwnd,
	.owner		= THIS_MODULE,
};

static int __init dummy_cc_init(void)
{
	strscpy(dummy_cc.name, name, sizeof(dummy_cc.name));
	return tcp_register_congestion_control(&dummy_cc);
}

static void __exit dummy_cc_exit(void)
{
	tcp_unregister_congestion_control(&dummy_cc);
}

module_init(dummy_cc_init);
module_exit(dummy_cc_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Reno under another name, for tcp_bbr_a's registration test");
