# scripts/lib/console.sh -- reading a guest kernel's console after it died (sourced).
# shellcheck shell=bash

# What marks a dead or broken guest kernel on its console.
CONSOLE_FAULT_RE='Kernel panic - not syncing|PANIC: double fault|(^|\] )(Oops: |BUG: |kernel BUG at |general protection fault)'

# console_fault FILE: nothing if FILE shows no kernel fault; else one line
# "fault MODULE FIRST" where FIRST is the first fault line and MODULE is "yes" when tcp_bbr_a
# may be involved: one of its functions is in the report (a symbolised frame ends in
# "[tcp_bbr_a]"; the "Modules linked in:" list does not count) or the faulting instruction
# has no symbol (RIP: 0010:0x...: kernel code outside the kernel image, the module's
# perhaps; a report's user-space RIP, code segment 0033, is always unsymbolised).
# Else "no": the project's code was on no stack the report shows.
console_fault() {
	local first mod=no
	[[ -f $1 ]] || return 0
	first=$(tr -d '\r' <"$1" | grep -m1 -E "$CONSOLE_FAULT_RE") || return 0
	first=$(sed -E 's/^\[ *[0-9.]+\] //' <<<"$first")
	if tr -d '\r' <"$1" | grep -v 'Modules linked in' |
		grep -qE '\[tcp_bbr_a\]|RIP: 0010:0x'; then
		mod=yes
	fi
	printf 'fault %s %s\n' "$mod" "$first"
}
