#!/bin/sh
# PID 1 of the UML guest, started by scripts/uml.sh as `init=/bin/sh -- /proc/self/cwd/init`.
# The root file system is the host's / over hostfs, mounted read-only (the kernel command
# line says ro) so that the guest cannot change the host: everything the guest writes goes
# to tmpfs mounts made here, except the run dir (host side, a separate hostfs mount).
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PATH
umask 022

# /proc is still the host's (through hostfs): /proc/self is the UML process and its cwd is
# the run dir scripts/uml.sh created. Read it before mounting the guest's own /proc.
host_run=$(readlink /proc/self/cwd)
H=/run/bbr_a/host

fail() {
	echo "uml init: $*" >&2
	[ -d "$H" ] && echo "setup:$*" >"$H/status"
	sync
	[ -x "$H/poweroff" ] && exec "$H/poweroff"
	exit 1
}

[ -n "$host_run" ] || fail "cannot find the run dir (readlink /proc/self/cwd)"
mount -t proc proc /proc || fail "mount /proc"
mount -t tmpfs -o mode=755 tmpfs /run || fail "mount /run"
mkdir -p "$H" || fail "mkdir $H"
mount -t hostfs -o "$host_run" none "$H" || fail "mount the run dir $host_run"
[ -f "$H/params" ] || fail "no params file in $host_run"
# shellcheck source=/dev/null
. "$H/params"

mountpoint -q /sys || mount -t sysfs sysfs /sys || fail "mount /sys"
mountpoint -q /dev || mount -t devtmpfs devtmpfs /dev || fail "mount /dev"
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts || fail "mount /dev/pts"
for d in /dev/shm /tmp /var/tmp /root; do
	mount -t tmpfs -o mode=755 tmpfs "$d" || fail "mount tmpfs on $d"
done
chmod 1777 /tmp /var/tmp /dev/shm

# tty1/tty2 carry the command's stdout/stderr to host files: no \n -> \r\n translation.
for t in /dev/console /dev/tty1 /dev/tty2; do
	stty -opost <"$t" 2>/dev/null
done

# `modprobe veth` etc. must succeed as in the QEMU guest: everything is built in, so a
# modprobe wrapper first in PATH looks at this kernel's modules.builtin (the host has no
# /lib/modules of its own to mount over).
kver=$(uname -r)
mkdir -p "/run/bbr_a/modroot/lib/modules/$kver" /run/bbr_a/bin
cp "$H/modules.builtin" "$H/modules.builtin.modinfo" "$H/modules.order" \
	"/run/bbr_a/modroot/lib/modules/$kver/" || fail "copy modules.builtin"
depmod -b /run/bbr_a/modroot "$kver" || fail "depmod"
printf '#!/bin/sh\nexec %s -d /run/bbr_a/modroot "$@"\n' "$(command -v modprobe)" >/run/bbr_a/bin/modprobe
chmod 755 /run/bbr_a/bin/modprobe
PATH=/run/bbr_a/bin:$PATH

# Fixed guest paths for everything the command sees, so outputs do not depend on host paths.
# The project tree is bind-mounted read-only, not copied: each file copied into tmpfs drew
# from the guest's RNG (its inode generation), so every file in the tree moved the random
# stream and the run (a 1 MB file in docs/ changed a 15 s run's traces). Now a run depends
# only on the files it reads.
mkdir -p /run/bbr_a/out /run/bbr_a/src
mount --bind "$H/src" /run/bbr_a/src || fail "bind-mount the project tree"
mount -o remount,bind,ro /run/bbr_a/src || fail "make the project tree read-only"
BBR_A_KO=
if [ "$BBR_A_HAVE_KO" = 1 ]; then
	cp "$H/tcp_bbr_a.ko" /run/bbr_a/tcp_bbr_a.ko || fail "copy tcp_bbr_a.ko"
	BBR_A_KO=/run/bbr_a/tcp_bbr_a.ko
fi
cp "$H/sampler" /run/bbr_a/sampler || fail "copy the sampler"
ip link set lo up 2>/dev/null

export BBR_A_SRC=/run/bbr_a/src BBR_A_KO BBR_A_OUT=/run/bbr_a/out BBR_A_KERNEL=uml BBR_A_SEED \
	BBR_A_SAMPLER=/run/bbr_a/sampler BBR_A_FILES=$H/files
export HOME=/root LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=dumb PYTHONDONTWRITEBYTECODE=1
cd "$BBR_A_SRC" || fail "cd $BBR_A_SRC"
/bin/sh -c "$BBR_A_CMD" </dev/null >/dev/tty1 2>/dev/tty2
status=$?
cd /

cp -R /run/bbr_a/out/. "$H/out/" || fail "copy $BBR_A_OUT back to the host"
echo "$status" >"$H/status"
sync
exec "$H/poweroff"
