# testbed/lib/backend.sh -- which backend runs rtt_fairness.sh's scenarios: the host itself,
# or a guest (QEMU or User-Mode Linux) through scripts/guest.sh.
# shellcheck shell=bash
# Sourced by rtt_fairness.sh; defines functions only. Uses its die, bad, log, REPO, BACKEND,
# LOAD_CCS (every cc of the runs, comma separated) and KERNEL.
{
# shellcheck source=scripts/lib/console.sh
source "$REPO/scripts/lib/console.sh" # console_fault

# A scratch namespace while host_reason probes netem (rtt_fairness.sh's cleanup deletes it).
PROBE_NS=

host_reason() { # prints why the host cannot run the testbed, nothing if it can
	[[ $(id -u) -eq 0 ]] || { echo "not root"; return; }
	[[ -e /proc/modules ]] || { echo "the host kernel has no module support"; return; }
	command -v ip >/dev/null && command -v tc >/dev/null || { echo "iproute2 is missing"; return; }
	PROBE_NS=bbraprobe$$
	ip netns add "$PROBE_NS" 2>/dev/null || { PROBE_NS=; echo "cannot create a network namespace"; return; }
	local ok=0
	ip -n "$PROBE_NS" link add name p0 type veth peer name p1 2>/dev/null &&
		tc -n "$PROBE_NS" qdisc add dev p0 root netem delay 1ms 2>/dev/null && ok=1
	ip netns del "$PROBE_NS"
	PROBE_NS=
	((ok)) || { echo "netem does not work in a scratch namespace"; return; }
	if [[ ,$LOAD_CCS, =~ ,(bbr_a|bbr_a_fair|bbq|da_bbr), ]] && [[ ! -d /sys/module/tcp_bbr_a ]] &&
		[[ ! -f ${BBR_A_KO:-$REPO/tcp_bbr_a.ko} ]]; then
		echo "tcp_bbr_a is not loaded and ${BBR_A_KO:-$REPO/tcp_bbr_a.ko} is not built (make)"
	fi
}

# host_machine: two run.env lines that tell machines apart. A UML or QEMU guest runs the host's
# own userland, and the same job (same key) has given other runs in another session, on
# another machine (docs/backends.md): host_cpu, the host's CPU model, and host_userland, a
# hash of the programs a scenario runs and the shared libraries they load.
host_machine() {
	local b f files=()
	echo "host_cpu=$(host_cpu)"
	for b in sh ip tc ping iperf3 /usr/bin/python3; do
		f=$(command -v "$b") && files+=("$(readlink -f "$f")")
	done
	# ldd lists each binary's libraries as "name => path (address)" or "path (address)"
	mapfile -t -O "${#files[@]}" files < <(ldd "${files[@]}" 2>/dev/null |
		sed -n 's/^[[:space:]]*\([^ ]* => \)\{0,1\}\(\/[^ ]*\) (.*/\2/p' |
		xargs -r readlink -f | sort -u)
	((${#files[@]})) || { echo "host_userland=unknown"; return; }
	echo "host_userland=$(sha256sum "${files[@]}" </dev/null 2>/dev/null | sort | sha256sum | cut -c1-12)"
}

# check_bbr3: bbr3 (BBRv3, which exists only as a kernel patch) runs on the UML kernel built
# with BBR_A_UML_PATCH, where the kernel's "bbr" is BBRv3 (testbed/lib/module.sh): --cc bbr3
# needs that variable and the uml backend (auto becomes uml), and with it the uml backend
# has no BBRv1, so bbr is refused rather than run as BBRv3 under BBRv1's name. Before
# anything starts, one line and exit status 2 (a usage error). A BBR_A_UML_PATCH that is no
# readable file is refused here too, for every run the uml backend may make.
#
# BBR_A_UML_SERIES=6.12 (scripts/lib/uml_kernel.sh) is that kernel without the patch, whose
# bbr is BBRv1 and keeps its name: a value other than 6.1 or 6.12, or beside
# BBR_A_UML_PATCH, is refused here the same way (one line, exit status 2).
check_bbr3() {
	local patch=${BBR_A_UML_PATCH:-} series=${BBR_A_UML_SERIES:-}
	case $series in
	"" | 6.1 | 6.12) ;;
	*) DIE_RC=2 die "BBR_A_UML_SERIES='$series' is not a kernel series the UML backend builds (6.1, the default, or 6.12)" ;;
	esac
	[[ -z $patch || -z $series ]] ||
		DIE_RC=2 die "BBR_A_UML_PATCH and BBR_A_UML_SERIES=$series exclude each other (the patch's kernel is always 6.12, its bbr BBRv3; BBR_A_UML_SERIES=6.12 is that kernel without the patch)"
	if [[ -n $patch && ($BACKEND == uml || $BACKEND == auto) && ! (-f $patch && -r $patch) ]]; then
		DIE_RC=2 die "BBR_A_UML_PATCH='$patch' is not a readable file (a BBRv3 patch for Linux 6.12, see docs/backends.md)"
	fi
	if [[ ,$LOAD_CCS, == *,bbr3,* ]]; then
		[[ -n $patch ]] ||
			DIE_RC=2 die "--cc bbr3 needs BBR_A_UML_PATCH=path to a BBRv3 patch for Linux 6.12 (see docs/backends.md)"
		case $BACKEND in
		uml) ;;
		auto) BACKEND=uml; log "backend: uml (bbr3 runs on the UML kernel built with BBR_A_UML_PATCH)" ;;
		*) DIE_RC=2 die "--cc bbr3 runs on the uml backend only (the UML kernel built with BBR_A_UML_PATCH), not --backend $BACKEND" ;;
		esac
	fi
	if [[ -n $patch && $BACKEND == uml && ,$LOAD_CCS, == *,bbr,* ]]; then
		DIE_RC=2 die "--cc bbr: with BBR_A_UML_PATCH the UML kernel's bbr is BBRv3 (--cc bbr3); run BBRv1 (bbr) in an invocation without BBR_A_UML_PATCH (docs/backends.md)"
	fi
	return 0
}

# choose_backend: BACKEND auto|host|qemu|uml becomes host, qemu or uml (and KERNEL uml for
# uml), or the run stops here with the reason.
choose_backend() {
	local why
	if [[ $BACKEND == auto || $BACKEND == host ]]; then
		why=$(host_reason)
		if [[ -z $why ]]; then
			BACKEND=host
			log "backend: host ($(uname -r))"
		elif [[ $BACKEND == host ]]; then
			die "backend host: $why"
		else
			BACKEND=uml
			local uml="6.1"
			[[ -z ${BBR_A_UML_PATCH:-} ]] || uml="6.12 with BBR_A_UML_PATCH"
			[[ ${BBR_A_UML_SERIES:-6.1} == 6.1 ]] || uml="$BBR_A_UML_SERIES (BBR_A_UML_SERIES)"
			log "backend: uml, User-Mode Linux $uml in time travel (host: $why; --backend qemu runs Debian's kernel)"
		fi
	fi
	if [[ $BACKEND == qemu || $BACKEND == uml ]]; then
		[[ -x $REPO/scripts/guest.sh ]] || die "scripts/guest.sh is missing (needed by the $BACKEND backend)"
		[[ $BACKEND == qemu ]] && ! command -v qemu-system-x86_64 >/dev/null &&
			die "qemu-system-x86_64 is missing (scripts/setup.sh installs it)"
		[[ $BACKEND == uml ]] && KERNEL=uml
	fi
	return 0
}

# The loaded module, as testbed/lib/module.sh finds it (BBR_A_MODULE_DIR: a stand-in, tests).
MODULE_SYS=${BBR_A_MODULE_DIR:-/sys/module/tcp_bbr_a}

# backend_module_ko: prints the tcp_bbr_a.ko the runs of BACKEND (host, qemu or uml) load:
# the host's BBR_A_KO or the repository's, or the guest's build of the repository's sources
# (cached by their contents, as the guest runner builds it: ~2 s for UML when cached).
backend_module_ko() {
	local ko
	case $BACKEND in
	host)
		ko=${BBR_A_KO:-$REPO/tcp_bbr_a.ko}
		[[ -f $ko ]] || { log "$ko does not exist (make, or set BBR_A_KO)"; return 1; }
		[[ $ko == /* ]] || ko=$PWD/$ko # modinfo reads a name without a / as a module's
		echo "$ko" ;;
	uml) ko=$("$REPO/scripts/uml.sh" module) && [[ -n $ko ]] && echo "$ko" ;;
	qemu) "$REPO/scripts/build_module.sh" "$KERNEL" ;;
	*) return 1 ;;
	esac
}

# check_module_params K=V...: each K is a parameter of the tcp_bbr_a the runs will load and
# each V within its range; else bad (exit 2) naming it. Names and ranges are the module's
# own, read when asked (its parameter set changes with its sources): `modinfo -p` of the .ko
# (backend_module_ko) gives "name:description [lo..hi, default d]" per parameter, the range
# from MODULE_PARM_DESC; a parameter without such a range is checked by name only. On a host
# where tcp_bbr_a is loaded already (scenario.sh then writes the values into its parameter
# files) the names are the loaded module's and the range is its own setter's, at run time.
check_module_params() {
	(($#)) || return 0
	local list='' from p name val line lo hi known l
	if [[ $BACKEND == host && -d $MODULE_SYS/parameters ]]; then
		from="the loaded tcp_bbr_a ($MODULE_SYS)"
		for p in "$MODULE_SYS"/parameters/*; do
			if [[ -e $p ]]; then list+="${p##*/}:"$'\n'; fi
		done
	else
		from=$(backend_module_ko) || die "cannot check --module-param: no tcp_bbr_a.ko for the $BACKEND backend (see above)"
		need modinfo
		list=$(modinfo -p "$from") || die "cannot check --module-param: modinfo -p $from failed"
	fi
	for p in "$@"; do
		name=${p%%=*} val=${p#*=} line='' known=''
		while IFS= read -r l; do
			[[ -n $l ]] || continue
			known+="${known:+ }${l%%:*}"
			[[ ${l%%:*} != "$name" ]] || line=$l
		done <<<"$list"
		[[ -n $line ]] || bad "--module-param: '$name' is not a parameter of $from (it has: ${known:-none})"
		[[ $line =~ \[([0-9]+)\.\.([0-9]+),\ default\ [0-9]+\]$ ]] || continue
		lo=${BASH_REMATCH[1]} hi=${BASH_REMATCH[2]}
		[[ $val =~ ^(0|[1-9][0-9]{0,17})$ ]] && ((val >= lo && val <= hi)) ||
			bad "--module-param: '$p': $name takes a whole number in $lo..$hi"
	done
}

# guest_run DIR GUEST_ARGS...: scripts/guest.sh GUEST_ARGS, whose --out is DIR. A QEMU guest
# whose kernel faults with none of tcp_bbr_a's code in the report (the emulated machine's
# fault as far as anyone can tell: docs/backends.md, "Guest faults") is run once more, its
# console kept as DIR/fault1-console.log. A fault that may involve the module, a second
# fault, and every other failure end the run.
guest_run() {
	local dir=$1 rc attempt fault on_stack first
	shift
	for attempt in 1 2; do
		rc=0
		run_child "$REPO/scripts/guest.sh" "$@" || rc=$?
		((rc == 125)) && [[ $BACKEND == qemu ]] || return "$rc"
		fault=$(console_fault "$dir/console.log")
		[[ -n $fault ]] || return "$rc"
		read -r _ on_stack first <<<"$fault"
		if [[ $on_stack == yes ]]; then
			log "the guest kernel faulted with tcp_bbr_a's code in its report ($first): a module bug until shown otherwise; not retried (console: $dir/console.log)"
			return "$rc"
		elif ((attempt == 2)); then
			log "the guest kernel faulted again, with no tcp_bbr_a code in its report ($first); not retried twice (consoles: $dir/fault1-console.log, $dir/console.log)"
			return "$rc"
		fi
		mv "$dir/console.log" "$dir/fault1-console.log"
		find "$dir" -mindepth 1 -maxdepth 1 ! -name fault1-console.log -exec rm -rf {} +
		log "the $KERNEL guest's kernel faulted with no tcp_bbr_a code in its report: $first"
		log "that is the emulated machine (QEMU TCG) or the guest kernel, not the module (docs/backends.md, 'Guest faults'); console kept in $dir/fault1-console.log; running it once more"
	done
}
}
