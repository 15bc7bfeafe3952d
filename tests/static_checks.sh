#!/usr/bin/env bash
# Static checks of the module sources, for the oldest and the newest Debian kernel series
# in the archive and for bookworm's 6.1 and 6.12 (scripts/kernels.sh series lists them):
#   - a W=1 build with zero compiler warnings, with the compiler the kernel was built with
#     (a chroot of the kernel's Debian release where it is not the host's: see
#     scripts/lib/buildenv.sh; root),
#   - sparse (C=2) with zero reports,
#   - checkpatch.pl --strict --no-tree with zero reports, except the types
#     ignored per file below (each one justified in docs/module.md, "Static checks");
# and of every shell script: shellcheck at severity warning, zero reports.
# checkpatch.pl comes from Debian's linux-source-6.1 tarball, unpacked once
# into the cache. Usage: tests/static_checks.sh [SERIES...]
# (default: STATIC_SERIES of scripts/lib/common.sh; SERIES as scripts/kernels.sh takes it)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
need sparse perl make gcc tar shellcheck objdump

args=("$@")
[[ ${#args[@]} -gt 0 ]] || read -ra args <<<"$STATIC_SERIES"
# newest/oldest as the series they stand for, each series once
series=()
for s in "${args[@]}"; do
	check_series "$s"
	n=$("$REPO/scripts/kernels.sh" series "$s") || die "cannot resolve kernel series '$s'"
	[[ " ${series[*]} " == *" $n "* ]] || series+=("$n")
done
fail=0

# checkpatch.pl and the data files it reads, keyed by the linux-source version.
src_ver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null) ||
	die "linux-source-6.1 is not installed; run: sudo scripts/setup.sh"
cp_dir="$CACHE/checkpatch/$src_ver"
if [[ ! -f $cp_dir/.complete ]]; then
	mkdir -p "$cp_dir"
	tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$cp_dir" --strip-components=1 \
		linux-source-6.1/scripts/checkpatch.pl linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch
	touch "$cp_dir/.complete"
fi

# file:checkpatch types that are accepted for that file (see docs/module.md).
checkpatch() {
	local file=$1 ignore=${2:-} out
	out=$(cd "$REPO" && perl "$cp_dir/scripts/checkpatch.pl" --strict --no-tree \
		--show-types ${ignore:+--ignore "$ignore"} -f "$file" 2>&1) || true
	if grep -q 'total: 0 errors, 0 warnings, 0 checks' <<<"$out"; then
		echo "ok - checkpatch $file"
	else
		echo "not ok - checkpatch $file"; sed 's/^/#   /' <<<"$out"; fail=1
	fi
}
checkpatch bbr_a_core.c MACRO_ARG_REUSE
checkpatch include/bbr_a_core.h MACRO_ARG_REUSE
for f in algos/*.h algos/*.c; do checkpatch "$f"; done
checkpatch include/bbr_a_compat.h
checkpatch include/bbr_a_gain.h
checkpatch include/bbr_a_math.h
checkpatch include/bbr_a_types.h PREFER_KERNEL_TYPES
checkpatch include/bbr_a_trace.h OPEN_ENDED_LINE,PARENTHESIS_ALIGNMENT
checkpatch examples/cc/tcp_example.c

# Shell: every *.sh plus the extension-less scripts (style notes are not failures; warnings
# and errors are).
mapfile -t shell_files < <(cd "$REPO" && find . -name '*.sh' -not -path './.git/*' \
	-not -path './results/*' | sort; echo scripts/initramfs/init; echo .ci/run)
if out=$(cd "$REPO" && shellcheck -x -S warning -f gcc "${shell_files[@]}" 2>&1); then
	echo "ok - shellcheck (${#shell_files[@]} scripts)"
else
	echo "not ok - shellcheck"; sed 's/^/#   /' <<<"$out"; fail=1
fi

# example_check SERIES: examples/cc built with W=1 against SERIES' headers, in its build
# environment (scripts/lib/buildenv.sh), with no warning.
source "$REPO/scripts/lib/debian.sh"
source "$REPO/scripts/lib/buildenv.sh"
example_check() {
	local kdir d=$tmp/example-$1
	kdir=$("$REPO/scripts/kernels.sh" kdir "$1") && buildenv_prepare "$kdir" && mkdir -p "$d" &&
		cp "$REPO"/examples/cc/{Kbuild,tcp_example.c} "$d/" || { echo "not ok - examples/cc for $1: no kernel"; fail=1; return; }
	if ! buildenv_run "$kdir" "$d" make -C "$kdir" M="$d" W=1 modules >"$d/build.log" 2>&1 ||
		[[ ! -f $d/tcp_example.ko ]] || grep -qE '(warning|error):' "$d/build.log"; then
		echo "not ok - examples/cc W=1 clean for $1"; tail -n 20 "$d/build.log" | sed 's/^/#   /'; fail=1
	else
		echo "ok - examples/cc W=1 clean for $1"
	fi
}

# A real compile on every run: build_module.sh --out builds in a new directory, not in the
# module cache, so what is judged is what today's compiler and sparse say about today's
# sources (the cache's key does not cover sparse's version). Judged on make's whole
# output, build.log: kbuild's '  CHECK  file.c' lines show that sparse ran.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for s in "${series[@]}"; do
	if ! out=$("$REPO/scripts/build_module.sh" --out "$tmp/$s" "$s" W=1 C=2 2>&1); then
		echo "not ok - build for $s"; sed 's/^/#   /' <<<"$out"; fail=1; continue
	fi
	blog=$tmp/$s/build.log
	echo "# $s: $(basename "$(dirname "$(grep -o '/[^ ]*/usr/src/linux-headers-[^ /]*' "$blog" | head -n1)/x")")," \
		"$(sed -n 's/^# built in: //p' "$blog")"
	# Anything the compiler or sparse says about our sources is a failure.
	if grep -qE '(warning|error):' "$blog"; then
		echo "not ok - W=1 + sparse clean for $s"
		grep -E '(warning|error):' "$blog" | sed 's/^/#   /'; fail=1
	elif ! grep -qE '^ +CHECK +' "$blog"; then # kbuild's line, not our notes
		echo "not ok - sparse did not run for $s"; fail=1
	else
		echo "ok - W=1 + sparse clean for $s"
	fi
	# examples/cc, a user's cc of one small file (testbed/README.md): a W=1 build with zero
	# warnings for the same kernel, as rtt_fairness.sh --module-src builds it
	example_check "$s"
	# No per-ACK entry point (each algorithm's *_main) zeroes stack memory: these kernels
	# zero every local that stays in memory (CONFIG_INIT_STACK_ALL_ZERO), and bbr_main()'s
	# context must not (bbr_a_no_autoinit; bbr_trace_gain_event() does not take it).
	ko=$(find "$tmp/$s" -name tcp_bbr_a.ko | head -n1)
	zeroing=$(objdump -d --no-show-raw-insn "$ko" | awk '/^[0-9a-f]+ <[a-z_]+_main>:$/ { f = $2 }
		/^$/ { f = "" } f != "" && /rep stos/ { print f }' | sort -u | tr '\n' ' ')
	if [[ -z $ko ]]; then
		echo "not ok - no tcp_bbr_a.ko built for $s"; fail=1
	elif [[ -n $zeroing ]]; then
		echo "not ok - stack zeroing on the per-ACK path for $s: $zeroing"; fail=1
	else
		echo "ok - no stack zeroing on the per-ACK path for $s"
	fi
done
exit $fail
