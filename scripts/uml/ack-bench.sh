#!/bin/sh
# The guest's side of scripts/bench_ack.sh. Runs INSIDE a UML guest on the host's clock:
#   scripts/uml.sh run --real-time --file ack_bench.ko -- sh scripts/uml/ack-bench.sh \
#       'BENCH ARGS' [MODULE ARGS...]
# loads tcp_bbr_a.ko with MODULE ARGS (and tcp_bbr_mod.ko if given), then ack_bench.ko (scripts/uml/ack_bench.c) with BENCH
# ARGS, which runs its loop in its init and declines to stay loaded; its lines from the
# kernel's log, read as they come (the ring buffer holds fewer), go to $BBR_A_OUT/bench.txt.
set -eu
: "${BBR_A_KO:?run through scripts/uml.sh}" "${BBR_A_FILES:?}" "${BBR_A_OUT:?}"
bench=${1:?usage: ack-bench.sh 'BENCH ARGS' [MODULE ARGS...]}
shift
insmod "$BBR_A_KO" "$@"
# the kernel's bbr as a module, when the bench built one (scripts/bench_ack.sh)
if [ -f "$BBR_A_FILES/tcp_bbr_mod.ko" ]; then
	insmod "$BBR_A_FILES/tcp_bbr_mod.ko"
fi
cat /dev/kmsg >/tmp/kmsg &
reader=$!
# shellcheck disable=SC2086 # one word per bench parameter
insmod "$BBR_A_FILES/ack_bench.ko" $bench 2>/dev/null || true
sleep 1
kill "$reader"
sed -n 's/^[^;]*;\(ack_bench.*\)$/\1/p' /tmp/kmsg >"$BBR_A_OUT/bench.txt"
