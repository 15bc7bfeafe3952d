# testbed/lib/screen_keys.sh -- a screen job's key (job.key: what its result depends on) and
# its state: done, stale or todo.
# shellcheck shell=bash
# Sourced by screen.sh after scripts/lib/module.sh; defines functions only. Uses die, REPO,
# OUT, KERNELID (hashes) and screen.sh's common options, common and fcommon.
{
# kernel_id BACKEND: the kernel the jobs of BACKEND run on, as exactly as it is known without
# building or booting anything: UML's build (linux-source-6.1's version and a hash of the
# patches and config), the QEMU backend's newest 6.12 (rtt_fairness.sh's default), the host's
# release; "unknown" where it cannot be told (no kernel sources yet).
kernel_id() {
	case $1 in
	uml) "$REPO/scripts/uml.sh" id 2>/dev/null || echo unknown ;;
	qemu) "$REPO/scripts/kernels.sh" resolve 6.12 2>/dev/null || echo qemu-6.12 ;;
	host) uname -r ;;
	*) echo "$1" ;;
	esac
}
# hashes BACKEND: MODHASH, TBHASH and KERNELID, what a job's result depends on besides its
# arguments.
hashes() {
	MODHASH=$(module_source_hash "$REPO") || die "cannot hash the module sources"
	# a user's module (--module-src, MSRC): its sources' hash (lib/module_src.sh)
	MSRC_HASH=''
	[[ -z ${MSRC:-} ]] || MSRC_HASH=$(modsrc_hash "$MSRC") || die "cannot hash the sources in $MSRC"
	TBHASH=$(testbed_source_hash "$REPO") || die "cannot hash the testbed sources"
	KERNELID=$(kernel_id "$1")
}
# key_line ARGS: a job's job.key: its whole rtt_fairness.sh arguments, the hashes of the
# module and testbed sources and the kernel (what the result depends on), for a
# scenario file's job (--scenario FILE) a hash of the file, and with --module-src a hash of
# that module's sources.
key_line() {
	local a prev='' shash=''
	for a; do
		[[ $prev != --scenario ]] || shash=" scenario=$(scenario_hash "$a")"
		prev=$a
	done
	printf '%s module=%s testbed=%s kernel=%s%s%s\n' "$*" "$MODHASH" "$TBHASH" "$KERNELID" "$shash" \
		"${MSRC_HASH:+ module_src=$MSRC_HASH}"
}
# scenario_path FILE: FILE as rtt_fairness.sh --scenario finds it (here, else in the
# repository); scenario_hash FILE: 12 hex digits of its contents.
scenario_path() { if [[ -f $1 || $1 == /* ]]; then echo "$1"; else echo "$REPO/$1"; fi; }
scenario_hash() { sha256sum <"$(scenario_path "$1")" | cut -c1-12; }
# old_key_holds DIR KEY: a job.key written before keys named the kernel (all up to 0.5.0's
# committed results) is KEY without its kernel=, and still holds when the kernel its
# summary.json records (uname -r in the guest: 6.1.192) is the one KERNELID names
# (6.1.192-2-10c4e557b052: that release's build); the build's own patches it cannot tell.
old_key_holds() {
	local have k
	have=$(<"$1/job.key")
	[[ $have == "${2% kernel=*}" ]] || return 1
	k=$(grep -m1 -o '"kernel": "[^"]*"' "$1/summary.json") || return 1
	k=${k#*: \"} k=${k%\"}
	[[ -n $k && ($KERNELID == "$k" || $KERNELID == "$k"-*) ]]
}
# job_common ARGS: JC, the common options of the job with these arguments
job_common() { if [[ " $* " == *" --scenario "* ]]; then JC=("${fcommon[@]}"); else JC=("${common[@]}"); fi; }
# job_key ARGS: the job.key of the job with these arguments (besides the common ones).
job_key() { job_common "$@"; key_line "${JC[@]}" "$@"; }
# job_state KEY ARGS: done (a result with this job key, or with the same key from before keys
# named the kernel, made on this kernel), stale (a result without it: another key, or none,
# as a job stopped before its end or made before job keys existed) or todo.
job_state() {
	local d=$OUT/$1 want
	shift
	want=$(job_key "$@")
	if [[ ! -d $d ]]; then
		echo todo
	elif [[ -f $d/summary.json && -f $d/job.key ]] &&
		{ [[ $(<"$d/job.key") == "$want" ]] || old_key_holds "$d" "$want"; }; then
		echo "done"
	else
		echo stale
	fi
}
}
