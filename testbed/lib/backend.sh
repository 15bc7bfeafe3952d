# testbed/lib/backend.sh -- which backend runs rtt_fairness.sh's scenarios: the host itself,
# or a guest (QEMU or User-Mode Linux) through scripts/guest.sh.
# shellcheck shell=bash
# Sourced by rtt_fairness.sh; defines functions only. Uses its die, log, REPO, BACKEND,
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
			log "backend: uml, User-Mode Linux 6.1 in time travel (host: $why; --backend qemu runs Debian's kernel)"
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
		"$REPO/scripts/guest.sh" "$@" || rc=$?
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
