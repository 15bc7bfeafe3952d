# A Debian kernel fetched into the cache: its kbuild headers, or headers, image and modules
# with the uncompressed vmlinux QEMU boots (sourced by scripts/kernels.sh after common.sh
# and debian.sh; defines functions only).
# shellcheck shell=bash

# The packages a release's headers or image consist of: the named package and those of its
# dependencies that belong to the kernel (the -common headers, linux-kbuild, and since 7.x the
# split image: linux-base-, linux-binary-, linux-modules-<release>).
kernel_packages() {
	local pkg=$1 rel=$2
	echo "$pkg"
	deb_apt_cache depends "$pkg" 2>/dev/null |
		sed -nE 's/^ *Depends: (linux-headers-[^ ]+-common|linux-kbuild-[^ ]+|linux-(base|binary|modules)-'"${rel//+/\\+}"')$/\1/p' |
		sort -u
}

# download_unpack DEST PKG...: apt-get download each package (the version apt would take) into
# $CACHE/debs and unpack it into DEST; the debs are removed once all are unpacked. On a
# failure the lists are refreshed and the download tried once more.
download_unpack() {
	local dest=$1 pkg ver deb used=() try
	shift
	mkdir -p "$CACHE/debs"
	for pkg in "$@"; do
		for try in 1 2; do
			ver=$(deb_candidate "$pkg" | cut -d' ' -f1)
			if [[ -n $ver ]]; then
				deb=$(compgen -G "$CACHE/debs/${pkg}_${ver//:/%3a}_*.deb" | head -n1) || true
				[[ -n $deb ]] && break
				(cd "$CACHE/debs" && deb_apt_get -q download "$pkg=$ver" >&2) &&
					deb=$(compgen -G "$CACHE/debs/${pkg}_${ver//:/%3a}_*.deb" | head -n1) && break
			fi
			[[ $try == 2 ]] && die "cannot download $pkg${ver:+=$ver} (package lists: $DEB_APT_DIR)"
			log "$pkg${ver:+=$ver} not found or not downloadable: refreshing the package lists"
			deb_update force
		done
		used+=("$deb")
		dpkg -x "$deb" "$dest"
	done
	rm -f "${used[@]}" # the unpacked tree is all we need
}

# Uncompressed ELF vmlinux from a bzImage (Debian: xz payload for 5.10 and 6.1, zstd later).
extract_vmlinux() {
	local bz=$1 out=$2 magic unz off
	for magic in '\xfd7zXZ\x00:xz -dc --single-stream' '\x28\xb5\x2f\xfd:zstd -dcq'; do
		unz=${magic#*:}
		for off in $(LC_ALL=C grep -obUaP "${magic%%:*}" "$bz" | cut -d: -f1); do
			tail -c +$((off + 1)) "$bz" | $unz >"$out" 2>/dev/null || true
			[[ $(head -c4 "$out" | od -An -c | tr -d ' ') == '177ELF' ]] && return 0
		done
	done
	die "no xz/zstd-compressed ELF kernel found in $bz"
}

# fetch_headers RELEASE: the kbuild headers unpacked into $CACHE/kernels/RELEASE (marker
# .headers; .complete, of a full fetch, implies it); prints the directory.
fetch_headers() {
	local rel=$1 dir=$CACHE/kernels/$1 kb suite pkgs pkg
	if [[ -f $dir/.headers || -f $dir/.complete ]]; then echo "$dir"; return; fi
	lock "kernel-$rel"
	if [[ -f $dir/.headers || -f $dir/.complete ]]; then echo "$dir"; return; fi
	need apt-get apt-cache dpkg
	deb_update
	suite=$(deb_candidate "linux-headers-$rel" | cut -d' ' -f2)
	[[ -n $suite ]] || die "linux-headers-$rel is not in the package lists ($DEB_APT_DIR)"
	mapfile -t pkgs < <(kernel_packages "linux-headers-$rel" "$rel")
	[[ ${#pkgs[@]} -gt 1 ]] || die "cannot resolve the dependencies of linux-headers-$rel"
	log "fetching the headers of Debian kernel $rel from $suite (${pkgs[*]}, once)"
	mkdir -p "$CACHE/kernels"
	tmp=$(mktemp -d "$CACHE/kernels/.tmp.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT INT TERM
	download_unpack "$tmp" "${pkgs[@]}"
	# The headers refer to themselves by absolute /usr/... paths: make them relative.
	kb=$tmp/usr/src/linux-headers-$rel
	[[ -f $kb/Makefile ]] || die "no usr/src/linux-headers-$rel/Makefile in the headers of $rel"
	# (since 7.x also KBUILD_OUTPUT, which is the headers' own directory)
	sed -i -E -e 's|^include /usr/src/([^/]+)/Makefile$|include $(dir $(lastword $(MAKEFILE_LIST)))../\1/Makefile|' \
		-e 's|^KBUILD_OUTPUT *= */usr/src/[^/]+$|KBUILD_OUTPUT := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))|' \
		"$kb/Makefile"
	! grep -q '/usr/src' "$kb/Makefile" || die "$kb/Makefile still names /usr/src: $(cat "$kb/Makefile")"
	echo "$suite" >"$tmp/.suite"
	# what else the headers and kbuild tools depend on (the compiler, the tools' libraries):
	# what a build environment of the kernel's release must hold (scripts/lib/buildenv.sh)
	for pkg in "${pkgs[@]}"; do
		[[ $pkg == linux-headers-"$rel" || $pkg == linux-kbuild-* ]] || continue
		deb_apt_cache depends "$pkg" 2>/dev/null | sed -nE 's/^ *Depends: ([^< ]+)$/\1/p'
	done | { grep -vE '^linux-(headers|kbuild|base|binary|modules|image)' || true; } | sort -u |
		paste -sd' ' - >"$tmp/.build-depends"
	touch "$tmp/.headers"
	rm -rf "$dir"
	mv "$tmp" "$dir"
	trap - EXIT INT TERM
	unlock
	echo "$dir"
}

# fetch RELEASE: headers, image and modules (depmod run) and the uncompressed vmlinux.
fetch() {
	local rel=$1 dir img mod pkgs bz
	dir=$(fetch_headers "$rel")
	if [[ -f $dir/.complete ]]; then echo "$dir"; return; fi
	lock "kernel-$rel"
	if [[ -f $dir/.complete ]]; then echo "$dir"; return; fi # another run unpacked it
	need apt-get apt-cache dpkg depmod xz zstd
	deb_update
	img=linux-image-$rel-unsigned
	[[ -n $(deb_candidate "$img") ]] || img=linux-image-$rel
	mapfile -t pkgs < <(kernel_packages "$img" "$rel")
	log "fetching Debian kernel $rel (${pkgs[*]}, about 100-200 MB, once)"
	tmp=$(mktemp -d "$CACHE/kernels/.tmp.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT INT TERM
	download_unpack "$tmp" "${pkgs[@]}"
	# Debian 13 on install modules under /usr/lib/modules (merged /usr): one place for all
	if [[ -d $tmp/usr/lib/modules/$rel && ! -e $tmp/lib/modules/$rel ]]; then
		mkdir -p "$tmp/lib/modules"
		mv "$tmp/usr/lib/modules/$rel" "$tmp/lib/modules/"
	fi
	mod=$tmp/lib/modules/$rel
	[[ -d $mod ]] || die "no lib/modules/$rel in ${pkgs[*]}"
	ln -sfn "../../../usr/src/linux-headers-$rel" "$mod/build"
	rm -f "$mod/source"
	# /boot/vmlinuz-RELEASE, or since 7.x's split packages /usr/lib/modules/RELEASE/vmlinuz
	bz=$tmp/boot/vmlinuz-$rel
	[[ -f $bz ]] || bz=$mod/vmlinuz
	[[ -f $bz ]] || die "no boot/vmlinuz-$rel or lib/modules/$rel/vmlinuz in ${pkgs[*]}"
	depmod -b "$tmp" "$rel"
	extract_vmlinux "$bz" "$tmp/vmlinux"
	# into the kernel directory beside the headers (hard links: same file system)
	cp -alf "$tmp/." "$dir/"
	rm -rf "$tmp"
	trap - EXIT INT TERM
	touch "$dir/.complete"
	unlock
	echo "$dir"
}
