#!/bin/sh
# Registration when another module holds one of tcp_bbr_a's names. Runs INSIDE a UML guest:
#   scripts/uml.sh run --file dummy_cc.ko -- sh tests/guest/register_names.sh NAME
# loads dummy_cc.ko (tests/guest/dummy_cc.c) as NAME, then tcp_bbr_a, and prints insmod's
# status, the available congestion controls, tcp_bbr_a's kernel messages, rmmod's status
# and the available ones after it.
set -u
name=${1:?usage: register_names.sh NAME}
A=/proc/sys/net/ipv4/tcp_available_congestion_control
insmod "$BBR_A_FILES/dummy_cc.ko" name="$name" || exit 10
insmod "$BBR_A_KO"
echo "insmod=$?"
echo "available=$(cat $A)"
dmesg | grep tcp_bbr_a
rmmod tcp_bbr_a
echo "rmmod=$?"
echo "after=$(cat $A)"
