#!/bin/sh
# What a UML guest's kernel says of its bbr, for tests/guest/test_uml_bbr3.py and
# test_uml_plain612.py: the release, tcp_bbr's version (BBRv3's patch gives it one, 3; BBRv1
# has none), the ccs with tcp_bbr_a loaded, and one bbr connection over loopback as ss shows
# it while it sends (at 50 Mbit/s: an unpaced loopback flow moves gigabytes a virtual
# second, which time travel computes in minutes of wall time). Runs INSIDE the guest:
#   scripts/uml.sh run --file tests/guest/bbr_facts.sh -- sh '"$BBR_A_FILES"/bbr_facts.sh'
set -e
echo "release=$(uname -r)" > "$BBR_A_OUT/facts"
v=none
[ ! -r /sys/module/tcp_bbr/version ] || read -r v < /sys/module/tcp_bbr/version
echo "bbr_version=$v" >> "$BBR_A_OUT/facts"
insmod "$BBR_A_KO"
echo "available=$(cat /proc/sys/net/ipv4/tcp_available_congestion_control)" >> "$BBR_A_OUT/facts"
ip link set lo up
sysctl -qw net.ipv4.tcp_congestion_control=bbr
iperf3 -s -1 -D -p 5301
sleep 0.5
iperf3 -c 127.0.0.1 -p 5301 -t 2 -b 50M > /dev/null &
sleep 1
ss -tin dport = :5301 > "$BBR_A_OUT/ss.txt"
wait
