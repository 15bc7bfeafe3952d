#!/usr/bin/env bash
# Run a command as root in a QEMU guest booted from a stock Debian kernel, with tcp_bbr_a.ko
# built for that kernel. `--kernel uml` is handed to scripts/uml.sh (User-Mode Linux).
set -euo pipefail
# One compound command: bash reads all of it before running, so editing this file while a
# run is going on cannot change that run.
{
# shellcheck source=scripts/lib/common.sh
source "$(dirname "$0")/lib/common.sh"
# shellcheck source=scripts/lib/initramfs.sh
source "$REPO/scripts/lib/initramfs.sh"
# shellcheck source=scripts/lib/console.sh
source "$REPO/scripts/lib/console.sh" # console_fault

usage() {
	cat <<EOF
Usage: $PROG --kernel SERIES|uml [--virtual-time] [--timeout SEC] [--out HOSTDIR]
                [--mem MB] [--smp N] [--ko FILE] [--seed N] -- COMMAND [ARGS...]

Boots the Debian kernel of SERIES (6.1, 6.12, 7.3 ..., newest or oldest: scripts/kernels.sh
series lists them; fetched once into the cache) in QEMU (TCG) with a minimal initramfs (busybox, iproute2, iperf3, ethtool, kmod, ping, qdisc modules) and runs
COMMAND as root with /bin/sh -c semantics (the words are joined by spaces), in \$BBR_A_SRC.
Guest environment:
  BBR_A_SRC     copy of the project tree as on disk, less .git, docs/, results/ and build products
  BBR_A_KO      tcp_bbr_a.ko built for the guest kernel (not loaded); a compressed --ko keeps
                its suffix (tcp_bbr_a.ko.xz, .ko.zst), which the guest's kmod reads
  BBR_A_OUT     directory shared with HOSTDIR (9p): what the command writes there is on the host
  BBR_A_KERNEL  the series (6.1, 6.12, ...; newest/oldest resolved)
  BBR_A_SAMPLER testbed/sampler.c, built static (the testbed's sock_diag/rtnetlink sampler)
COMMAND's output streams to stdout; the kernel console goes to HOSTDIR/console.log and the
final dmesg to HOSTDIR/dmesg.txt.

  --kernel K      a Debian series as above (QEMU) or uml (exec scripts/uml.sh run with the
                  same arguments)
  --virtual-time  deterministic-ish virtual time: -smp 1 -icount shift=0,sleep=off (one
                  instruction per ns, idle time skipped); default: real time, 2 vCPUs
  --timeout SEC   wall-clock limit for the whole run (default 900)
  --out HOSTDIR   where results land (created; default: a temp dir, removed at exit)
  --mem MB        guest memory (default 1024)
  --smp N         vCPUs (default 2, or 1 with --virtual-time)
  --ko FILE       boot with this tcp_bbr_a.ko instead of building the repository's: .ko, or
                  compressed as a kernel's modules_install or DKMS leaves it (.ko.xz,
                  .ko.zst as they are; .ko.gz unpacked here, the guest's kmod has no zlib)
  --seed N        uml: seeds the guest's randomness (same seed, same bytes). QEMU runs are
                  not bit-reproducible: the seed is only exported as BBR_A_SEED
  --file FILE     copy FILE into the guest's directory BBR_A_FILES (repeatable; as uml.sh)

Exit status: COMMAND's, or 2 usage, 123 setup failure (missing tool, fetch/build failed,
guest did not boot), 124 timeout, 125 kernel panic/Oops/BUG or guest died.
Cache: $CACHE (BBR_A_CACHE). The newest Debian kernel of the series is used; pin one
with BBR_A_KVER_<series, _ for .>, e.g. BBR_A_KVER_6_1=6.1.0-NN-amd64.
Extra kernel command line words: BBR_A_GUEST_APPEND. Guest CPU model: BBR_A_QEMU_CPU
(default qemu64,+rdrand; see docs/backends.md). A kernel that has not reached init after
BBR_A_GUEST_BOOT_TIMEOUT wall seconds (default 240) is booted once more.
EOF
}

boot_tmo=${BBR_A_GUEST_BOOT_TIMEOUT:-240}
series='' vtime=0 tmo=900 out='' mem=1024 smp='' ko='' seed=1 files=()
args=("$@")
while [[ $# -gt 0 ]]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--kernel) series=${2:-}; shift 2 || break ;;
	--virtual-time) vtime=1; shift ;;
	--timeout) tmo=${2:-}; shift 2 || break ;;
	--out) out=${2:-}; shift 2 || break ;;
	--mem) mem=${2:-}; shift 2 || break ;;
	--smp) smp=${2:-}; shift 2 || break ;;
	--ko) ko=${2:-}; shift 2 || break ;;
	--seed) seed=${2:-}; shift 2 || break ;;
	--file) [[ -f ${2-} ]] || DIE_RC=2 die "--file: no such file '${2-}'"; files+=("$2"); shift 2 ;;
	--) shift; break ;;
	*) usage >&2; DIE_RC=2 die "unknown argument '$1' (COMMAND goes after --)" ;;
	esac
done
if [[ $series == uml ]]; then
	[[ -x $REPO/scripts/uml.sh ]] || DIE_RC=123 die "scripts/uml.sh is missing: no UML backend"
	exec "$REPO/scripts/uml.sh" run "${args[@]}"
fi
DIE_RC=2
check_series "$series"
DIE_RC=123
series=$("$REPO/scripts/kernels.sh" series "$series") || die "cannot resolve the kernel series"
DIE_RC=2
[[ $# -gt 0 ]] || die "missing COMMAND (after --)"
for v in tmo mem ${smp:+smp}; do
	[[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "--${v/tmo/timeout} needs a positive integer"
done
[[ $seed =~ ^[0-9]+$ ]] || die "--seed needs a non-negative integer"
[[ $boot_tmo =~ ^[1-9][0-9]*$ ]] || die "BBR_A_GUEST_BOOT_TIMEOUT needs a positive integer (seconds)"
[[ -z $ko || -f $ko ]] || die "--ko $ko: no such file"
case $ko in '' | *.ko | *.ko.xz | *.ko.zst | *.ko.gz) ;;
*) die "--ko $ko: not a module file (.ko, .ko.xz, .ko.zst or .ko.gz)" ;; esac
cmd="$*"
[[ -n $smp ]] || smp=$((vtime ? 1 : 2))

DIE_RC=123
need qemu-system-x86_64 timeout cpio mkfifo flock bc
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bbr_a_guest.XXXXXX")
qpid='' catpid=''
cleanup() {
	set +e
	# a second signal (the process group's and the caller's stop_child) must not cut this short
	trap '' INT TERM HUP
	trap - EXIT
	[[ -n $qpid ]] && kill "$qpid" 2>/dev/null # timeout(1), passes the signal on to QEMU
	[[ -s $tmp/qemu.pid ]] && kill "$(cat "$tmp/qemu.pid")" 2>/dev/null
	[[ -n $catpid ]] && kill "$catpid" 2>/dev/null
	[[ -n $qpid ]] && wait "$qpid" 2>/dev/null
	[[ -n $out && -f $tmp/console.log ]] && cp "$tmp/console.log" "$out/"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT
trap 'log "terminated"; exit 143' TERM

# Resolve the release once (apt-cache is slow) and pin it for kernels.sh/build_module.sh.
kver=$("$REPO/scripts/kernels.sh" resolve "$series") || die "cannot resolve the $series kernel"
export "BBR_A_KVER_${series//./_}=$kver"
kdir=$("$REPO/scripts/kernels.sh" fetch "$series") || die "cannot fetch the $series kernel"
if [[ -z $ko ]]; then
	ko=$("$REPO/scripts/build_module.sh" "$series" 2>"$tmp/build.log") ||
		{ cat "$tmp/build.log" >&2; die "building tcp_bbr_a.ko for $kver failed"; }
fi
base=$(base_initramfs "$kdir" "$tmp")
sampler=$(build_helper "$REPO/testbed/sampler.c" sampler) || exit

# Per-run cpio: the project tree, the module, the command and its environment.
run=$tmp/run
copy_tree "$run/bbr_a/src" || die "cannot copy the project tree into the guest's initramfs"
# the module under the name its compression gives it (see --ko)
case $ko in
*.ko.gz) ko_name=tcp_bbr_a.ko; gzip -dc "$ko" >"$run/bbr_a/$ko_name" || die "--ko $ko: cannot gunzip it" ;;
*) ko_name=tcp_bbr_a.ko${ko##*.ko}; cp "$ko" "$run/bbr_a/$ko_name" ;;
esac
# the testbed's netlink sampler (testbed/lib/record.sh): one process instead of an ss and a tc
# per sample, each exec costing ~40..100 ms of emulated time
cp "$sampler" "$run/bbr_a/sampler"
mkdir -p "$run/bbr_a/files"
for f in "${files[@]}"; do cp "$f" "$run/bbr_a/files/"; done
printf '%s\n' "$cmd" >"$run/bbr_a/cmd"
printf 'BBR_A_SRC=/bbr_a/src\nBBR_A_KO=/bbr_a/%s\nBBR_A_OUT=/bbr_a/out\nBBR_A_KERNEL=%s\nBBR_A_SEED=%s\nBBR_A_SAMPLER=/bbr_a/sampler\nBBR_A_FILES=/bbr_a/files\n' \
	"$ko_name" "$series" "$seed" >"$run/bbr_a/env"
(cd "$run" && find . -mindepth 1 -printf '%P\n' | cpio -o -H newc -R 0:0 --quiet) >"$tmp/run.cpio"
cat "$base" "$tmp/run.cpio" >"$tmp/initrd.cpio"
rm -rf "$run"

if [[ -n $out ]]; then mkdir -p "$out" || die "cannot create --out $out"; out=$(cd "$out" && pwd)
else mkdir "$tmp/out"; fi
share=${out:-$tmp/out}

con=$tmp/console.log
tail_console() {
	echo "---- last 40 lines of the guest console ($kver) ----" >&2
	tail -n 40 "$con" 2>/dev/null | tr -d '\r' >&2
	echo "----" >&2
}

# A kernel that hangs in its own boot, before init runs and so before any project code
# (seen under TCG: the console stops mid-boot while QEMU spins), is killed after boot_tmo
# wall seconds without init's "booted", its console kept as console-hung.log, and booted
# once more; a console that shows a fault is never retried.
boot() { # boot the guest once; sets qrc, t0, t1; returns 3 if the kernel hung before init
	local hung=0 start
	rm -f "$tmp/stdout" "$tmp/ctl" "$tmp/console.log"
	mkfifo "$tmp/stdout"
	cat "$tmp/stdout" &
	catpid=$!
	t0=$(date +%s.%N) start=$SECONDS
	timeout -k 5 "$tmo" qemu-system-x86_64 -nodefaults -no-user-config -display none -no-reboot \
		"${accel[@]}" -cpu "${BBR_A_QEMU_CPU:-qemu64,+rdrand}" -smp "$smp" -m "$mem" -pidfile "$tmp/qemu.pid" \
		-kernel "$kdir/vmlinux" -initrd "$tmp/initrd.cpio" \
		-append "console=ttyS0 panic=-1 tsc=reliable rdinit=/init ${BBR_A_GUEST_APPEND:-}" \
		-serial "file:$tmp/console.log" -serial "file:$tmp/stdout" -serial "file:$tmp/ctl" \
		-virtfs "local,path=${share//,/,,},mount_tag=bbr_a_out,security_model=none" \
		2>"$tmp/qemu.err" &
	qpid=$!
	while kill -0 "$qpid" 2>/dev/null && ! grep -q '^booted' "$tmp/ctl" 2>/dev/null; do
		if ((SECONDS - start >= boot_tmo)); then hung=1; kill "$qpid"; break; fi
		sleep 1
	done
	qrc=0
	wait "$qpid" || qrc=$?
	qpid=
	t1=$(date +%s.%N)
	# Unblock the reader if QEMU never opened the pipe, then let it drain.
	exec 3<>"$tmp/stdout"
	exec 3>&-
	wait "$catpid" || true
	catpid=
	((hung)) && [[ -z $(console_fault "$tmp/console.log") ]] && return 3
	return 0
}

# shellcheck disable=SC2054 # the commas belong to QEMU's option syntax
if ((vtime)); then accel=(-accel tcg -icount shift=0,sleep=off -rtc clock=vm)
else accel=(-accel tcg,thread=multi); fi
for try in 1 2; do
	log "booting $kver ($( ((vtime)) && echo virtual || echo real) time, $smp vCPU, $mem MB)"
	boot && break
	[[ -n $out ]] && cp "$tmp/console.log" "$out/console-hung.log"
	last=$(tr -d '\r' <"$tmp/console.log" | grep -v '^$' | tail -n1)
	if ((try == 2)); then
		tail_console
		DIE_RC=123 die "the $kver guest did not boot, twice: its kernel hung before init (no project code had run) for ${boot_tmo}s"
	fi
	log "the $kver kernel hung in its boot, before init and any project code (${boot_tmo}s; its console's last line: ${last:-none}); booting it again"
done

status=$(sed -n 's/^rc \([0-9]*\).*/\1/p' "$tmp/ctl" 2>/dev/null | tail -n1)
wall=$(echo "$t1 - $t0" | bc)
DIE_RC=125
fault=$(console_fault "$con")
if [[ -n $fault ]]; then
	read -r _ on_stack first <<<"$fault"
	tail_console
	die "the $kver guest kernel faulted after ${wall}s: $first (tcp_bbr_a code in the report: $on_stack; console.log has it all)"
fi
if [[ $qrc -eq 124 || $qrc -eq 137 ]]; then
	tail_console; DIE_RC=124 die "timeout: the $kver guest ran longer than ${tmo}s (killed)"
fi
if ! grep -q '^booted' "$tmp/ctl" 2>/dev/null; then
	cat "$tmp/qemu.err" >&2
	tail_console; DIE_RC=123 die "the $kver guest did not boot (qemu exit status $qrc)"
fi
if [[ -z $status ]]; then
	grep '^error' "$tmp/ctl" >&2 || true
	tail_console; die "the $kver guest stopped without reporting the command's status"
fi
grep -q 'WARNING: ' "$con" && log "warning: the kernel logged a WARNING (see console.log)"
g() { sed -n "s/^$1 //p" "$tmp/ctl"; }
log "$kver: exit status $status; ${wall%??????} s wall; guest clock: init $(g booted) s, command $(g start)..$(g end) s"
exit "$status"
}
