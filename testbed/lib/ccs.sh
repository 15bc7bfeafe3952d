# testbed/lib/ccs.sh -- the congestion controls a run may name on its backend, and the module
# files that bring the ones its kernel lacks: the kernel's own ccs (for UML built here out of
# tree from the UML kernel's net/ipv4/tcp_*.c; the distribution's modules on qemu and host)
# and a user's module (--module-src DIR).
# shellcheck shell=bash
# Sourced by rtt_fairness.sh; defines functions only. Uses its die, log, lock_file, unlock,
# REPO, CACHE, BACKEND, KERNEL and LOAD_CCS; sets MODSRC* (modsrc_check) and CC_KOS.
{
# the ccs tcp_bbr_a.ko registers (testbed/lib/module.sh's is_module_cc)
MODULE_CCS="bbr_a bbr_a_fair bbq da_bbr"
# Bump when a build below changes in a way that changes its output (part of the cache keys).
CCS_RECIPE=1
MODDIR='' # a Debian kernel's module tree (lib/modules/RELEASE), where its ccs come from
CC_KOS=() # the module files a run insmods, dependencies first (host paths)

# cc_source_names FILE...: the names of the tcp_congestion_ops the C files define (.name =
# "x"), those a kernel could register (TCP_CA_NAME_MAX; dctcp's "dctcp-reno" is no cc).
cc_source_names() {
	awk '/struct[ \t]+tcp_congestion_ops[^;(]*=[ \t]*\{/ { ops = 1 }
		ops && match($0, /\.name[ \t]*=[ \t]*"[^"]*"/) {
			s = substr($0, RSTART, RLENGTH); sub(/^[^"]*"/, "", s); sub(/"$/, "", s); print s }
		ops && /^\}/ { ops = 0 }' "$@" | grep -E '^[a-z][a-z0-9_]{0,14}$' || true
}

# uml_cc_sources TREE: "NAME FILE" lines, the ccs of TREE's net/ipv4 that its kernel does not
# have built in, each with its source; uml_builtin_ccs TREE: the names it has built in
# (reno, of tcp_cong.c, always).
uml_cc_sources() {
	local f n
	for f in "$1"/net/ipv4/tcp_*.c; do
		[[ ${f##*/} != tcp_cong.c ]] || continue
		grep -qx "kernel/net/ipv4/$(basename "$f" .c).ko" "$1/modules.builtin" && continue
		grep -q 'tcp_register_congestion_control' "$f" || continue
		for n in $(cc_source_names "$f"); do echo "$n ${f##*/}"; done
	done
}
uml_builtin_ccs() {
	local m
	echo reno
	while read -r m; do
		[[ $m == kernel/net/ipv4/tcp_*.ko ]] || continue
		cc_source_names "$1/net/ipv4/$(basename "$m" .ko).c"
	done <"$1/modules.builtin"
}

# uml_cc_build TREE: build every cc of uml_cc_sources TREE as a module for that kernel, out of
# tree (its config and build id stay as they are), cached in $CACHE/cc_modules by the tree
# and the sources; prints the directory. A cc that does not build has no .ko there (make -k;
# build.log says why).
uml_cc_build() {
	local tree=$1 files key dir
	files=$(uml_cc_sources "$tree" | awk '{ print $2 }' | sort -u)
	[[ -n $files ]] || { echo ''; return 0; }
	key=$({
		echo "recipe $CCS_RECIPE tree $tree"
		cd "$tree/net/ipv4" && cat $files tcp_*.h
	} | sha256sum | cut -c1-12)
	dir=$CACHE/cc_modules/uml-$(basename "$(dirname "$tree")")-$key
	build_once "$dir" "the UML kernel's other congestion controls (once)" \
		uml_cc_make "$tree" "$files" >&2
	echo "$dir"
}
# uml_cc_make TREE FILES DIR: FILES (net/ipv4's cc sources of TREE) built into DIR
uml_cc_make() {
	(cd "$1/net/ipv4" && cp $2 tcp_*.h "$3/")
	echo "obj-m := $(echo $2 | sed 's/\.c\b/.o/g')" >"$3/Kbuild"
	make -k -C "$1" ARCH=um M="$3" modules >"$3/build.log" 2>&1 ||
		log "warning: not every cc built for UML (see $3/build.log)"
}

# debian_cc_files MODDIR: "NAME FILE" lines, the cc modules of a Debian kernel's module tree
# (lib/modules/RELEASE; tcp_NAME.ko*, NAME the cc it registers; tcp_diag and tcp_sigpool are
# no ccs); debian_builtin_ccs MODDIR: the ccs built in (reno always, cubic in Debian's
# configs).
debian_cc_files() {
	local f n
	for f in "$1"/kernel/net/ipv4/tcp_*.ko*; do
		[[ -e $f ]] || continue
		n=${f##*/tcp_} n=${n%%.ko*}
		[[ $n == diag || $n == sigpool ]] || echo "$n $f"
	done
}
debian_builtin_ccs() {
	echo reno
	[[ -f $1/modules.builtin ]] || return 0
	sed -n 's#^kernel/net/ipv4/tcp_\([a-z0-9_]*\)\.ko$#\1#p' "$1/modules.builtin" | grep -vxE 'diag|sigpool' || true
}

# kernel_moddir: the module tree of the kernel the runs of BACKEND boot (qemu: the Debian
# kernel of KERNEL, fetched once; host: the running kernel's)
kernel_moddir() {
	local kd
	case $BACKEND in
	qemu) kd=$("$REPO/scripts/kernels.sh" fetch "$KERNEL") || die "cannot fetch the $KERNEL kernel"
		find "$kd/lib/modules" -mindepth 1 -maxdepth 1 -type d | head -n 1 ;;
	host) echo "/lib/modules/$(uname -r)" ;;
	esac
}

# backend_ccs: "NAME FILE" lines, every kernel cc of the backend's kernel, FILE the module
# that brings it ('-' for one built in or, on the host, available already).
backend_ccs() {
	local tree md n
	case $BACKEND in
	uml)
		tree=$("$REPO/scripts/uml.sh" build) || die "the UML kernel could not be built"
		uml_builtin_ccs "$tree" | sed 's/$/ -/'
		uml_cc_sources "$tree" ;;
	qemu | host)
		md=$(kernel_moddir)
		debian_builtin_ccs "$md" | sed 's/$/ -/'
		if [[ $BACKEND == host ]]; then
			read -r -a have </proc/sys/net/ipv4/tcp_available_congestion_control
			for n in "${have[@]}"; do echo "$n -"; done
		fi
		debian_cc_files "$md" ;;
	esac
}

# ko_with_deps KO: add KO to CC_KOS after the modules it depends on (modinfo's depends), each
# found beside it (UML's builds) or in the module tree MODDIR (a Debian kernel's), once.
ko_with_deps() {
	local ko=$1 dep f
	for dep in $(modinfo -F depends "$ko" 2>/dev/null | tr ',' ' '); do
		f=$(find "${ko%/*}" ${MODDIR:+"$MODDIR"} -name "$dep.ko*" -print -quit)
		[[ -n $f ]] || die "${ko##*/} needs the module $dep, which is not there"
		ko_with_deps "$f"
	done
	[[ " ${CC_KOS[*]} " == *" $ko "* ]] || CC_KOS+=("$ko")
}

# qemu_ko FILE: FILE (a Debian kernel's module, compressed) as a plain .ko in the cache (the
# guest's kmod is built without xz and zstd); prints its path.
qemu_ko() {
	local d=$CACHE/cc_modules/qemu-${1#*/lib/modules/} out
	d=${d%%/kernel/*} out=$d/${1##*/}
	out=${out%.xz} out=${out%.zst}
	if [[ ! -s $out ]]; then
		mkdir -p "$d"
		case $1 in
		*.xz) xz -dc "$1" >"$out.tmp" ;; *.zst) zstd -qdc "$1" >"$out.tmp" ;; *) cp "$1" "$out.tmp" ;;
		esac && mv "$out.tmp" "$out" || die "cannot unpack $1"
	fi
	echo "$out"
}

# the ccs of LOAD_CCS and --reverse (its default cubic), space separated
run_ccs() {
	local rev=''
	[[ -z $REVERSE ]] || { rev=cubic; [[ $REVERSE != *:* ]] || rev=${REVERSE#*:}; }
	echo "${LOAD_CCS//,/ } $rev"
}

# ccs_beyond_common: true when the runs name a cc that not every backend's kernel has (all
# have reno, cubic and bbr), or have a --module-src module (whose names must not clash): only
# then are they checked against the backend's kernel (check_ccs); runs of the common ones
# need no backend for their dry run and load nothing more than before.
ccs_beyond_common() {
	local c
	[[ -z $MODSRC ]] || return 0
	for c in $(run_ccs); do
		[[ " $MODULE_CCS bbr3 reno cubic bbr " == *" $c "* ]] || return 0
	done
	return 1
}

# check_ccs [build]: every cc of LOAD_CCS and of --reverse is one the runs can use on BACKEND:
# tcp_bbr_a's, bbr3 (check_bbr3 decides), a --module-src cc, or a cc of the backend's kernel
# (backend_ccs); else one line and exit status 2, before anything starts. A --module-src cc
# may not take a name one of those has. With "build", also CC_KOS: the module files the runs
# insmod (the kernel ccs the guest lacks and the --module-src module, built if need be).
check_ccs() {
	local list c n f tree dir need=()
	list=$(backend_ccs) || exit
	for n in $MODSRC_NAMES; do
		[[ " $MODULE_CCS bbr3 " != *" $n "* ]] && ! awk -v n="$n" '$1 == n { f = 1 } END { exit !f }' <<<"$list" ||
			DIE_RC=2 die "--module-src: its cc '$n' has the name of a congestion control the $BACKEND backend has already"
	done
	for c in $(run_ccs); do
		[[ " $MODULE_CCS bbr3 $MODSRC_NAMES " != *" $c "* ]] || continue
		f=$(awk -v c="$c" '$1 == c { print $2; exit }' <<<"$list")
		[[ -n $f ]] || DIE_RC=2 die "--cc: '$c' is not a congestion control the $BACKEND backend has ($(
			awk '{ print $1 }' <<<"$list" | sort -u | paste -sd ' ')${MODSRC_NAMES:+, --module-src: $MODSRC_NAMES}; tcp_bbr_a: $MODULE_CCS)"
		[[ $f == - ]] || need+=("$c $f")
	done
	[[ ${1-} == build ]] || return 0
	CC_KOS=()
	if [[ $BACKEND == uml && ${#need[@]} -gt 0 ]]; then
		tree=$("$REPO/scripts/uml.sh" build) && dir=$(uml_cc_build "$tree") || die "cannot build the UML kernel's ccs"
		for n in "${need[@]}"; do
			f=$dir/$(basename "${n#* }" .c).ko
			[[ -f $f ]] || die "${n%% *} did not build for the UML kernel: $(grep -m1 'error' "$dir/build.log")"
			ko_with_deps "$f"
		done
	elif [[ $BACKEND == qemu ]]; then
		MODDIR=$(kernel_moddir)
		for n in "${need[@]}"; do
			# the guest's initramfs has tcp_bbr and modprobes it (scripts/lib/initramfs.sh)
			[[ ${n%% *} != bbr ]] || continue
			ko_with_deps "${n#* }"
		done
		for n in "${!CC_KOS[@]}"; do CC_KOS[n]=$(qemu_ko "${CC_KOS[n]}"); done
	fi # host: module_prepare modprobes the distribution's modules
	[[ -z $MODSRC ]] || { modsrc_build; CC_KOS+=("${MODSRC_KOS[@]}"); }
	for n in "${!CC_KOS[@]}"; do
		[[ " ${CC_KOS[*]:0:n} " != *"/${CC_KOS[n]##*/} "* ]] ||
			DIE_RC=2 die "--module-src: its module ${CC_KOS[n]##*/} has the file name of a kernel cc's module"
	done
}
}
