#!/bin/sh
# How the module parses a parameter value: every input of the table below written to
# loss_thresh (0..1000) or inflight_thresh (256..1024), and two given to insmod. Runs INSIDE
# a guest (busybox ash or dash):
#   scripts/uml.sh run [--ko FILE] -- sh tests/guest/param_parse.sh
# Prints one line per input: "NAME INPUT -> VALUE" (accepted; what the file reads after) or
# "NAME INPUT -> rejected" (the value unchanged), INPUT as printf's %b takes it (\n: a
# newline; echo adds one, as in `echo 30 > FILE`). tests/guest/test_uml_module.py holds the expected answers, which are
# kstrtouint(buf, 0, ...)'s followed by the range check: the kernel's param_set_uint_minmax()
# and the fallback in include/bbr_a_compat.h must both give them.
set -u
: "${BBR_A_KO:?run through scripts/uml.sh or scripts/guest.sh}"
P=/sys/module/tcp_bbr_a/parameters

# write NAME INPUT: INPUT is written with printf %b (so \n is a newline), in one write.
write() {
	_f=$P/$1 _in=$2
	_before=$(cat "$_f")
	if printf '%b' "$_in" >"$_f" 2>/dev/null; then
		printf '%s %s -> %s\n' "$1" "$_in" "$(cat "$_f")"
	elif [ "$(cat "$_f")" != "$_before" ]; then
		printf '%s %s -> rejected, but changed to %s\n' "$1" "$_in" "$(cat "$_f")"
	else
		printf '%s %s -> rejected\n' "$1" "$_in"
	fi
	echo "$_before" >"$_f"
}

insmod "$BBR_A_KO" loss_thresh=030 || { echo "insmod loss_thresh=030 failed"; exit 1; }
echo "insmod loss_thresh=030 -> $(cat $P/loss_thresh)"
rmmod tcp_bbr_a
if insmod "$BBR_A_KO" loss_thresh=08 2>/dev/null; then
	echo "insmod loss_thresh=08 -> $(cat $P/loss_thresh)"
	rmmod tcp_bbr_a
else
	echo "insmod loss_thresh=08 -> rejected"
fi
insmod "$BBR_A_KO" || exit 1
for v in '30\n' '30' '030\n' '0x1f\n' '0X1F\n' '+7\n' '0\n' '1000\n' '1001\n' '08\n' ' 5\n' \
	'5 \n' '5\n\n' '-1\n' '-0\n' '4294967296\n' '0x\n' '1e3\n' 'abc\n' '\n'; do
	write loss_thresh "$v"
done
for v in '255\n' '256\n' '0x100\n' '0400\n' '1024\n' '1025\n'; do
	write inflight_thresh "$v"
done
rmmod tcp_bbr_a
