# Where the module is compiled for a kernel: the host, or a chroot of the kernel's own Debian
# release (sourced after common.sh and debian.sh).
# shellcheck shell=bash
#
# A kernel from another Debian release than the host's was built with that release's
# compiler and ships kbuild tools linked against its C library: trixie's 7.x headers have a
# .config made for gcc 14 (-fmin-function-alignment=16 and more that bookworm's gcc 12
# rejects) and a modpost and objtool that need glibc 2.38 (bookworm has 2.36); bullseye's 5.10
# was built with gcc 10. Translating flags or rebuilding the tools would compile with another
# compiler than the kernel's. Instead such a kernel's modules are built in a minimal chroot of
# its release (mmdebstrap, variant essential, from the archive URI of the machine's own Debian
# entry) holding the compiler its headers depend on, make, sparse and what its kbuild tools
# need: the toolchain Debian built that kernel with. The chroot is made once per release and
# package set, in $CACHE/buildenv/<release>-<hash>/ (about 350 MB, under a minute), read-only
# while builds run in it, with the kernel's cached directory and the build directory
# bind-mounted at their own paths. Making and using it needs root (mount, chroot).

# shellcheck disable=SC2034 # BUILDENV_ROOT and BUILDENV_ID are read by scripts/lib/module.sh
BUILDENV_RECIPE=2 # bump when the chroot's contents change for the same package set

# buildenv_kernel_dir KDIR: the kernels.sh cache directory a kbuild dir belongs to, or nothing
# (a UML build tree, a kernel of the host's release).
buildenv_kernel_dir() {
	local d=${1%/usr/src/linux-headers-*}
	[[ $d != "$1" && -f $d/.suite ]] && echo "$d"
	return 0
}

# buildenv_dist KDIR: the Debian release whose toolchain builds for KDIR; empty for the host.
buildenv_dist() {
	local kd dist
	kd=$(buildenv_kernel_dir "$1")
	[[ -n $kd ]] || return 0
	dist=$(deb_base_suite "$(cat "$kd/.suite")")
	[[ $dist == "$(deb_host_codename)" ]] || echo "$dist"
}

# buildenv_packages KDIR: what the chroot for KDIR holds beyond the essential set: the
# compiler its headers depend on (gcc-NN-for-host, linux-compiler-gcc-NN-x86 or gcc-NN all
# mean gcc-NN), the libraries and tools its linux-kbuild package depends on, make, an awk
# (kbuild's recipes use it) and sparse (C=2). Sorted, comma-separated.
buildenv_packages() {
	local kd deps
	kd=$(buildenv_kernel_dir "$1")
	deps=$(cat "$kd/.build-depends" 2>/dev/null) ||
		die "$kd has no .build-depends (fetched by an older kernels.sh): remove it and fetch it again"
	printf '%s\n' $deps make mawk sparse |
		sed -E 's/^linux-compiler-(gcc-[0-9]+)-x86$/\1/; s/^(gcc-[0-9]+)-for-host$/\1/' |
		sort -u | paste -sd, -
}

# buildenv_prepare KDIR: sets BUILDENV_ROOT (the chroot, made if missing; empty: the host) and
# BUILDENV_ID (what a cached build's key records: where, and the compiler's version).
buildenv_prepare() {
	local kdir=$1 dist pkgs key dir src cc
	dist=$(buildenv_dist "$kdir")
	if [[ -z $dist ]]; then
		BUILDENV_ROOT='' BUILDENV_ID="host $(gcc --version | sed -n 1p)"
		return
	fi
	pkgs=$(buildenv_packages "$kdir")
	src=$(deb_sources_line "$dist")
	key=$(printf '%s\n' "$BUILDENV_RECIPE" "$src" "$pkgs" | sha256sum | cut -c1-12)
	dir=$CACHE/buildenv/$dist-$key
	if [[ ! -f $dir/.complete ]]; then
		lock_file "$dir.lock"
		[[ -f $dir/.complete ]] || buildenv_create "$dir" "$dist" "$src" "$pkgs"
		unlock
	fi
	cc=$(cat "$dir/.compilers")
	BUILDENV_ROOT=$dir/root BUILDENV_ID="chroot $dist-$key $cc"
	touch "$dir/.used"
	buildenv_prune
}

# buildenv_prune: remove build environments unused for BBR_A_BUILDENV_KEEP_DAYS days (default 30;
# one is left behind whenever a release's package set or this recipe changes).
buildenv_prune() {
	local d
	for d in "$CACHE"/buildenv/*/; do
		d=${d%/}
		[[ -f $d/.used && -n $(find "$d/.used" -mtime +"${BBR_A_BUILDENV_KEEP_DAYS:-30}") ]] || continue
		# not while it is being made or used (the lock of its creation)
		(flock -n 9 && rm -rf "$d" "$d.lock") 9>"$d.lock" || true
	done
}

# buildenv_create DIR DIST SOURCE PACKAGES: the chroot in DIR/root (see the top of this file).
buildenv_create() {
	local dir=$1 dist=$2 src=$3 pkgs=$4 t0
	[[ $(id -u) -eq 0 ]] || die "building for a $dist kernel needs a $dist chroot, and making it needs root"
	need mmdebstrap unshare chroot
	log "making the $dist build environment in $dir ($pkgs; once, about a minute)"
	rm -rf "$dir"
	mkdir -p "$dir"
	t0=$(date +%s)
	# the machine's apt settings that decide whether the archive can be read at all (a
	# proxy; accepting Release files past their Valid-Until, as this machine's apt does)
	local aptopts=() o
	while read -r o; do aptopts+=(--aptopt="$o"); done < <(apt-config dump 2>/dev/null |
		grep -iE '^Acquire::(Check-Valid-Until|Check-Date|https?::Proxy)( |::)')
	if ! mmdebstrap --quiet --variant=essential --include="$pkgs" \
		--aptopt='Acquire::Languages "none"' "${aptopts[@]}" \
		--dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
		--dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/info/*' \
		"$dist" "$dir/root" "$src" >"$dir/mmdebstrap.log" 2>&1; then
		tail -n 20 "$dir/mmdebstrap.log" >&2
		die "mmdebstrap of the $dist build environment failed (log: $dir/mmdebstrap.log)"
	fi
	buildenv_sparse "$dir/root" "$dist"
	# the compilers' and sparse's versions: part of every module build's cache key
	chroot "$dir/root" sh -c 'for c in /usr/bin/*-gcc-[0-9]*; do "$c" --version | head -n1; done
		PATH=/usr/local/bin:/usr/bin; echo "sparse $(sparse --version)"' |
		sort -u | paste -sd';' - >"$dir/.compilers"
	echo "$(($(date +%s) - t0)) s, $(du -sm "$dir/root" | cut -f1) MB" >"$dir/.cost"
	touch "$dir/.complete"
	log "made the $dist build environment: $(cat "$dir/.cost")"
}

# buildenv_sparse ROOT DIST: kernels since 6.14 use __typeof_unqual__, which sparse 0.6.4 (in
# trixie) cannot parse; their kbuild would then skip sparse (scripts/checker-valid.sh). Where
# the release's sparse fails on it, the newest sparse in the package lists goes into
# ROOT/usr/local/bin, ahead of it on PATH, if it runs there (sparse is a checker, not the
# compiler: the code built is the same).
buildenv_sparse() {
	local root=$1 dist=$2 ver tmp
	# (sparse exits 0 after errors: what it says is the verdict)
	sparse_ok() {
		local out
		out=$(printf 'int f(const int *p);\nint f(const int *p) { return (__typeof_unqual__(*p))1; }\n' |
			chroot "$root" "$1" - 2>&1) && [[ -z $out ]]
	}
	sparse_ok /usr/bin/sparse && return
	ver=$(deb_candidate sparse | cut -d' ' -f1)
	[[ -n $ver ]] || return 0
	tmp=$(mktemp -d)
	if (cd "$tmp" && deb_apt_get -qq download "sparse=$ver" >&2) && dpkg -x "$tmp"/sparse_*.deb "$tmp/x" &&
		install -m755 "$tmp/x/usr/bin/sparse" "$root/usr/local/bin/sparse" && sparse_ok /usr/local/bin/sparse; then
		log "$dist's sparse cannot parse __typeof_unqual__: using Debian's sparse $ver there"
	else
		rm -f "$root/usr/local/bin/sparse"
		log "$dist's sparse cannot parse __typeof_unqual__ (kernels since 6.14 use it), and no newer one runs there"
	fi
	rm -rf "$tmp"
}

# buildenv_run KDIR DIR COMMAND...: COMMAND in the build environment of KDIR (as prepared by
# buildenv_prepare), in directory DIR; in a chroot, the kernel's cache directory (read-only) and
# DIR (read-write) are mounted at their own paths, the rest of the chroot is read-only, and
# /tmp is a fresh tmpfs.
buildenv_run() {
	local kdir=$1 dir=$2 kd
	shift 2
	if [[ -z $BUILDENV_ROOT ]]; then
		(cd "$dir" && "$@")
		return
	fi
	kd=$(buildenv_kernel_dir "$kdir")
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare --mount --propagation private /bin/sh -ec '
		r=$1 kd=$2 dir=$3; shift 3
		mount --bind "$r" "$r"
		mount -t proc proc "$r/proc"
		mount -t tmpfs tmpfs "$r/tmp"
		mkdir -p "$r$kd" "$r$dir"
		mount --bind "$kd" "$r$kd"; mount -o remount,bind,ro "$r$kd"
		mount --bind "$dir" "$r$dir"
		mount -o remount,bind,ro "$r"
		exec chroot "$r" /usr/bin/env -i PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp LC_ALL=C \
			/bin/sh -c "cd \"\$0\" && exec \"\$@\"" "$dir" "$@"
	' sh "$BUILDENV_ROOT" "$kd" "$dir" "$@"
}
