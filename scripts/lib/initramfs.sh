# Build the cached base initramfs (uncompressed cpio) for a Debian kernel. Sourced by guest.sh.
# shellcheck shell=bash

# Modules the guest can modprobe (the kernel autoloads the *_diag ones that ss needs);
# virtio_pci, 9pnet_virtio and 9p carry $BBR_A_OUT back to the host.
GUEST_MODULES="veth sch_netem sch_htb sch_tbf sch_fq sch_codel sch_fq_codel sch_prio sch_sfq sch_red
	sch_ingress ifb act_mirred cls_u32 cls_matchall cls_basic tcp_bbr inet_diag tcp_diag udp_diag
	unix_diag netlink_diag virtio_pci 9pnet_virtio 9p"
# Real tools that replace busybox's applets of the same name.
# iputils' ping: busybox's stops after its count of requests, iputils' after that many replies
# (the testbed's base-RTT check under heavy random loss)
GUEST_TOOLS="ip tc ss ethtool iperf3 kmod ping"
KMOD_LINKS="insmod rmmod modprobe modinfo lsmod depmod"
# With BBR_A_GUEST_PYTHON=1 the image also has python3 (its standard library less its tests,
# GUIs and the host's installed packages), flent and netperf: what the traffic
# client tcpflow.py, trains of finite flows and flent's tests need. An image of its own, so that runs without them keep
# the small one and the iperf3 client that auto picks where python3 is missing.
GUEST_PYTHON_PKGS="flent netperf"
GUEST_PYTHON_PRUNE=(test idlelib tkinter turtledemo ensurepip lib2to3 pydoc_data 'config-*' dist-packages site-packages)

# The guest's /bin/sh is Debian's dynamically linked busybox: unlike busybox-static, its ash
# honours PATH instead of running its own ip/tc/modprobe applets, so iproute2 and kmod in
# /usr/sbin win. It is downloaded (not installed: it conflicts with busybox-static) once into
# the cache. The other applets (cat, sleep, mount ...) are busybox-static: under TCG a static
# exec costs ~40 ms, a dynamically linked one ~100 ms.
guest_busybox() {
	local dir=$CACHE/userland ver deb old
	old=$(find "$dir" -name 'busybox-*' -type f 2>/dev/null | sort -V | tail -n1)
	if [[ -n $old ]]; then echo "$old"; return; fi
	lock userland
	ver=$(apt-cache show --no-all-versions busybox 2>/dev/null | sed -n 's/^Version: //p' | head -n1)
	mkdir -p "$dir"
	if [[ -n $ver ]] && (cd "$dir" && apt-get -q -o APT::Sandbox::User="$(id -un)" download "busybox=$ver" >&2); then
		deb=$(echo "$dir"/busybox_*.deb)
		dpkg --fsys-tarfile "$deb" | tar -xO ./bin/busybox >"$dir/busybox-${ver//:/%3a}"
		chmod +x "$dir/busybox-${ver//:/%3a}"
		rm -f "$deb"
		echo "$dir/busybox-${ver//:/%3a}"
		return
	fi
	log "warning: could not fetch Debian's busybox package; the guest's sh is busybox-static," \
		"which runs its own ip/tc applets before PATH (call /sbin/ip, /sbin/tc by full path)"
	command -v busybox
}

# Key of the base image: kernel release + versions of everything that goes in + our sources.
initramfs_key() {
	local kver=$1 bb=$2
	{
		echo "$kver $GUEST_MODULES $GUEST_TOOLS"
		sha256sum "$bb" "$(command -v busybox)"
		dpkg-query -W -f='${Package} ${Version}\n' iproute2 iperf3 ethtool kmod libc6 iputils-ping
		if [[ ${BBR_A_GUEST_PYTHON:-0} == 1 ]]; then
			dpkg-query -W -f='${Package} ${Version}\n' $GUEST_PYTHON_PKGS
			sha256sum "$(readlink -f /usr/bin/python3)"
		fi
		cat "$REPO/scripts/initramfs/init" "${BASH_SOURCE[0]}"
	} | sha256sum | cut -c1-12
}

# copy_exe ROOT FILE DEST: an executable and the shared libraries ldd lists, same paths.
copy_exe() {
	local root=$1 file=$2 dest=$3 lib
	install -D -m755 "$(readlink -f "$file")" "$root$dest"
	for lib in $(ldd "$file" 2>/dev/null | grep -o '/[^ ]*'); do
		[[ -e $root$lib ]] || install -D -m755 "$(readlink -f "$lib")" "$root$lib"
	done
}

# guest_python ROOT: python3 and its standard library, flent (Debian's, run from
# /usr/share/flent as on the host), netperf and netserver into ROOT.
guest_python() {
	local root=$1 py lib so d skip=() n
	py=$(readlink -f /usr/bin/python3)
	lib=/usr/lib/$(basename "$py")
	[[ -x $py && -d $lib && -x /usr/share/flent/run ]] || die "BBR_A_GUEST_PYTHON=1 needs python3, flent and" \
		"netperf on the host (scripts/setup.sh installs them)"
	need netperf netserver
	copy_exe "$root" "$py" "$py"
	ln -sf "$(basename "$py")" "$root/usr/bin/python3"
	mkdir -p "$root$lib"
	for n in "${GUEST_PYTHON_PRUNE[@]}"; do skip+=(! -name "$n"); done
	(cd "$lib" && find . -mindepth 1 -maxdepth 1 "${skip[@]}" -exec cp -a {} "$root$lib/" \;)
	for so in "$root$lib"/lib-dynload/*.so; do copy_exe "$root" "$so" "${so#"$root"}"; done
	mkdir -p "$root/usr/share/flent"
	for d in flent run "$(basename /usr/share/flent/flent-*.egg-info)"; do
		cp -a "/usr/share/flent/$d" "$root/usr/share/flent/"
	done
	ln -sf ../share/flent/run "$root/usr/bin/flent"
	copy_exe "$root" "$(command -v netperf)" /usr/bin/netperf
	copy_exe "$root" "$(command -v netserver)" /usr/bin/netserver
}

# base_initramfs KDIR WORKDIR: print the cached cpio for an unpacked kernel (kernels.sh fetch),
# building it in WORKDIR (a temp dir the caller removes) if needed; with BBR_A_GUEST_PYTHON=1,
# the image with python3 and flent (guest_python).
base_initramfs() {
	local kdir=$1 root=$2/root kver bb key out t m a mods py=''
	kver=$(basename "$kdir")
	[[ ${BBR_A_GUEST_PYTHON:-0} != 1 ]] || py=-py
	bb=$(guest_busybox)
	key=$(initramfs_key "$kver" "$bb")
	out=$CACHE/initramfs/$kver$py-$key.cpio
	if [[ -f $out ]]; then echo "$out"; return; fi
	lock "initramfs-$kver$py"
	if [[ -f $out ]]; then echo "$out"; return; fi
	need cpio ldd depmod ldconfig xz zstd busybox $GUEST_TOOLS
	log "building the guest initramfs for $kver${py:+ with python3 and flent}"
	mkdir -p "$CACHE/initramfs"
	mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev,tmp,run,root,mnt,var,bbr_a}
	ln -s ../run "$root/var/run"

	for t in $GUEST_TOOLS; do
		copy_exe "$root" "$(PATH=/usr/sbin:/usr/bin:/sbin:/bin command -v "$t")" "/usr/sbin/$t"
	done
	for a in $KMOD_LINKS; do ln -s kmod "$root/usr/sbin/$a"; done
	copy_exe "$root" "$bb" /bin/busybox-sh
	copy_exe "$root" "$(command -v busybox)" /bin/busybox
	for a in $(busybox --list); do
		# real tools win; /sbin/ip etc. point at them too, for scripts using full paths
		if [[ -e $root/usr/sbin/$a ]]; then
			ln -sf "../usr/sbin/$a" "$root/sbin/$a"
		else
			[[ -e $root/bin/$a ]] || ln -s busybox "$root/bin/$a"
		fi
	done
	ln -sf busybox-sh "$root/bin/sh"
	ln -sf busybox-sh "$root/bin/ash"
	for t in ip ss; do ln -sf "../usr/sbin/$t" "$root/bin/$t"; done
	for t in $GUEST_TOOLS $KMOD_LINKS; do [[ -e $root/sbin/$t ]] || ln -s "../usr/sbin/$t" "$root/sbin/$t"; done

	# tc's distribution tables (netem delay distributions) and iproute2's config
	local tcd=/usr/lib/x86_64-linux-gnu/tc
	mkdir -p "$root$tcd"
	cp "$tcd"/*.dist "$root$tcd/"
	ln -s x86_64-linux-gnu/tc "$root/usr/lib/tc"
	[[ -d /etc/iproute2 ]] && cp -r /etc/iproute2 "$root/etc/"
	[[ -z $py ]] || guest_python "$root"
	printf '%s\n' /lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu >"$root/etc/ld.so.conf"
	ldconfig -r "$root"
	printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' >"$root/etc/passwd"
	printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"
	printf '127.0.0.1\tlocalhost\n::1\tlocalhost\n' >"$root/etc/hosts"
	install -m755 "$REPO/scripts/initramfs/init" "$root/init"

	# modules and their dependencies, decompressed (the guest's kmod needs no xz/zstd)
	local msrc=$kdir/lib/modules/$kver mdst=$root/lib/modules/$kver rel
	mods=$(modprobe -d "$kdir" -S "$kver" -a --show-depends $GUEST_MODULES | awk '$1 == "insmod" {print $2}' | sort -u) ||
		die "cannot resolve guest modules in $kdir"
	for m in $mods; do
		rel=${m#"$msrc/"}
		mkdir -p "$(dirname "$mdst/$rel")"
		case $m in
		*.ko.xz) xz -dc "$m" >"$mdst/${rel%.xz}" ;;
		*.ko.zst) zstd -qdc "$m" >"$mdst/${rel%.zst}" ;;
		*) cp "$m" "$mdst/$rel" ;;
		esac
	done
	cp "$msrc"/modules.{order,builtin,builtin.modinfo} "$mdst/"
	depmod -b "$root" "$kver"

	(cd "$root" && find . -mindepth 1 -printf '%P\n' | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$out.tmp"
	rm -f "$CACHE/initramfs/$kver$py"-[0-9a-f]*.cpio # older builds of this image
	mv "$out.tmp" "$out"
	echo "$out"
}
