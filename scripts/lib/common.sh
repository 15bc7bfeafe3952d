# Shared helpers for the host-side scripts (sourced, not executed).
# shellcheck shell=bash

CACHE="${BBR_A_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tcp_bbr_a}"
# shellcheck disable=SC2034 # used by the scripts that source this file
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PROG="$(basename "$0")"
PATH="$PATH:/usr/sbin:/sbin" # depmod, ip, tc for non-root users

log() { printf '%s: %s\n' "$PROG" "$*" >&2; }
# die MESSAGE: exit with status $DIE_RC (default 1); scripts with documented exit codes set
# DIE_RC for a phase (DIE_RC=123 during setup) or one call (DIE_RC=2 die "bad option").
die() { printf '%s: error: %s\n' "$PROG" "$*" >&2; exit "${DIE_RC:-1}"; }
# bad MESSAGE: a usage error: exit 2 with a pointer to --help.
bad() { printf '%s: error: %s\n(see %s --help)\n' "$PROG" "$*" "$PROG" >&2; exit 2; }

# run_child CMD...: CMD, run in the background and waited for. bash runs a trap only once the
# foreground command has ended, so a TERM to a script running CMD in the foreground would
# wait for all of CMD; a wait is cut short at once, and the script's trap calls stop_child.
# CMD starts with SIGINT ignored (a background command of a non-interactive shell does), so
# a terminal's Ctrl-C reaches it only as the TERM stop_child sends.
CHILD_PID=''
run_child() {
	local rc=0
	"$@" &
	CHILD_PID=$!
	wait "$CHILD_PID" || rc=$?
	CHILD_PID=''
	return "$rc"
}

# stop_child: TERM to what run_child is running, if anything, and wait for its own cleanup
# (scripts/uml.sh and scripts/guest.sh stop their guest, scenario.sh its namespaces).
stop_child() {
	local p=$CHILD_PID
	[[ -n $p ]] || return 0
	CHILD_PID=''
	kill -TERM "$p" 2>/dev/null || true
	wait "$p" 2>/dev/null || true
}

# host_cpu: the host's CPU in one line: /proc/cpuinfo's model name with its family and model
# numbers (a virtual machine's model name can be as generic as "Intel(R) Xeon(R) Processor"),
# commas dropped for CSV files; the architecture where /proc/cpuinfo names no model.
host_cpu() {
	local name family model
	name=$(cpuinfo 'model name') family=$(cpuinfo 'cpu family') model=$(cpuinfo model)
	[[ -n $name ]] || { uname -m; return; }
	name="$name${family:+ family $family}${model:+ model $model}"
	echo "${name//,/}"
}
cpuinfo() { sed -n "s/^$1[[:space:]]*:[[:space:]]*//p" /proc/cpuinfo 2>/dev/null | head -n 1; }

# need TOOL... : fail with a hint to scripts/setup.sh if a command is missing.
need() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 ||
			die "'$t' not found; install the project's packages with: sudo scripts/setup.sh"
	done
}

# build_helper SOURCE NAME: a static binary of one C file (a guest gets it without the host's
# libraries), cached by the file's contents and the compiler; prints its path.
build_helper() {
	local dir
	need gcc
	dir=$CACHE/tools/$({ gcc --version | sed -n 1p; cat "$1"; } | sha256sum | cut -c1-12)
	if [[ ! -x $dir/$2 ]]; then
		mkdir -p "$dir"
		gcc -static -O2 -Wall -o "$dir/$2.tmp.$$" "$1" ||
			die "cannot build the static helper $2 from $1 (libc6-dev with libc.a needed)"
		mv "$dir/$2.tmp.$$" "$dir/$2"
	fi
	echo "$dir/$2"
}

# The Debian kernel series the test suite covers by default (scripts/kernels.sh matrix shows
# what they are today): tests/static_checks.sh builds these (W=1, sparse) ...
# shellcheck disable=SC2034 # read by tests/static_checks.sh, scripts/kernels.sh
STATIC_SERIES="oldest 6.1 6.12 newest"
# ... and tests/guest/test_integration.py boots these (it reads this line).
# shellcheck disable=SC2034
GUEST_SERIES="6.1 6.12 newest"

# check_series SERIES : a Debian kernel series as scripts/kernels.sh takes it: MAJOR.MINOR
# (5.10, 6.1, 6.12, 7.3 ...) or newest / oldest (`scripts/kernels.sh series` lists them).
check_series() {
	case "${1:-}" in
	newest | oldest) ;;
	"") die "missing kernel series (MAJOR.MINOR such as 6.1, or newest / oldest)" ;;
	*) [[ $1 =~ ^[1-9][0-9]*\.[0-9]+$ ]] ||
		die "unknown kernel series '$1' (expected MAJOR.MINOR such as 6.1, or newest / oldest;" \
			"scripts/kernels.sh series lists those Debian offers)" ;;
	esac
}

# lock NAME: hold an exclusive lock on $CACHE/.lock.NAME until unlock or the script exits
# (parallel runs must not unpack or build into the same cache directory at once).
lock() { lock_file "$CACHE/.lock.$1"; }
# lock_file FILE [SECONDS]: the same on any lock file; gives up after SECONDS (default 1800).
# unlock releases the latest lock; earlier ones stay held until the script exits.
lock_file() {
	mkdir -p "$(dirname "$1")"
	exec {_lockfd}>"$1"
	flock -n "$_lockfd" && return
	log "waiting for $1 (held by another run)"
	flock -w "${2:-1800}" "$_lockfd" || die "timed out waiting for $1"
}
unlock() { exec {_lockfd}>&-; }
# build_once DIR WHAT CMD [ARGS...]: unless DIR/.complete says it is built, build it under
# DIR.lock: "CMD ARGS DIR" into DIR made afresh, then DIR/.complete; a run that waited for
# the lock finds another's build and does not repeat it. CMD's failure is build_once's.
build_once() {
	local dir=$1 what=$2
	shift 2
	[[ ! -f $dir/.complete ]] || return 0
	lock_file "$dir.lock"
	if [[ ! -f $dir/.complete ]]; then
		log "building $what in $dir"
		rm -rf "$dir"
		mkdir -p "$dir"
		"$@" "$dir" || { unlock; return 1; }
		touch "$dir/.complete"
	fi
	unlock
}

# What copy_tree leaves out: VCS data, documentation and experiment results (docs/ holds the
# reproduction's raw runs, hundreds of MB), Python caches and build products. tar patterns:
# './NAME' is NAME at the top of the tree only, a bare pattern matches anywhere.
TREE_EXCLUDES=(.git ./docs ./results ./tests/unit/build __pycache__ .pytest_cache '*.pyc'
	'*.ko' '*.o' '*.mod' '*.mod.c' '.*.cmd' '.*.d' Module.symvers modules.order .tmp_versions)

# The file that marks a directory as experiment results (results_dir): copy_tree leaves such
# a directory out wherever it is, so that a run whose --out is inside the tree neither copies
# earlier results into its guest nor fails on files a parallel job is writing.
RESULTS_TAG=.bbr_a-results

# results_dir DIR: create DIR (and parents) and mark it as results; the tree itself, or a
# directory above it, is refused (copy_tree would then leave out everything)
results_dir() {
	local d
	mkdir -p "$1" && d=$(cd "$1" && pwd -P) || return 1
	case "$(cd "$REPO" && pwd -P)/" in
	"$d"/*) log "results_dir: $1 holds the project tree; use a directory inside or outside it"
		return 1 ;;
	esac
	: >>"$d/$RESULTS_TAG"
}

# copy_tree DEST: the project tree as it is on disk (uncommitted changes included, every
# directory but the excluded ones and those results_dir marked) into DEST; this is
# $BBR_A_SRC in the guests.
copy_tree() {
	local x ex=(--exclude-tag-all="$RESULTS_TAG")
	[[ ! -e $REPO/$RESULTS_TAG ]] || { log "copy_tree: $REPO is marked as results"; return 1; }
	for x in "${TREE_EXCLUDES[@]}"; do ex+=(--exclude="$x"); done
	mkdir -p "$1" && tar -C "$REPO" "${ex[@]}" -cf - . | tar -C "$1" -xf -
}
