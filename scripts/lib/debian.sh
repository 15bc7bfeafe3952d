# Debian's archive through a private apt configuration (sourced after common.sh).
# shellcheck shell=bash
#
# The kernels the project builds for and boots come from several Debian releases (bullseye's
# 5.10, bookworm's 6.1 and 6.12, the newest series from trixie-backports or sid). The
# machine's own apt setup is left alone: the package lists of those suites live in
# $CACHE/apt, read through apt-get/apt-cache options, with the mirror URIs of the machine's
# existing Debian entry (nothing here names a mirror).

# The suites whose kernels kernels.sh can pick from; the main archive's URI serves the plain
# and -backports suites, the security archive's the -security ones. Override with
# BBR_A_APT_SUITES (space-separated).
DEB_SUITES=${BBR_A_APT_SUITES:-bullseye bullseye-security bookworm bookworm-security
	bookworm-backports trixie-backports sid}
# Lists older than this many hours are refreshed before a look-up (BBR_A_APT_MAX_AGE_H).
DEB_LISTS_MAX_AGE_H=${BBR_A_APT_MAX_AGE_H:-24}
DEB_APT_DIR=$CACHE/apt

# deb_host_codename: the host's Debian release (bookworm), from /etc/os-release.
# shellcheck source=/dev/null
deb_host_codename() { (. "${BBR_A_OS_RELEASE:-/etc/os-release}" && echo "${VERSION_CODENAME:-}"); }

# deb_base_suite SUITE: the release a suite belongs to (trixie-backports -> trixie).
deb_base_suite() {
	local s=$1
	s=${s%-security}; s=${s%-updates}; s=${s%-proposed-updates}; s=${s%-backports-sloppy}
	s=${s%-backports}
	[[ $s == experimental ]] && s=sid
	echo "$s"
}

# deb_host_sources: "URI SUITE SIGNED-BY" for every Debian entry of the machine's apt setup
# (deb822 .sources files and one-line sources.list entries; BBR_A_APT_ETC stands for
# /etc/apt in tests), one suite a line.
deb_host_sources() {
	local f etc=${BBR_A_APT_ETC:-/etc/apt}
	for f in "$etc"/sources.list.d/*.sources; do
		[[ -f $f ]] || continue
		awk 'function flush() { if (t ~ /(^| )deb( |$)/ && u != "") { n = split(u, us, " ");
				m = split(s, ss, " "); for (i = 1; i <= n; i++) for (j = 1; j <= m; j++)
				print us[i], ss[j], (k == "" ? "-" : k) } t = u = s = k = "" }
			/^[ \t]*$/ { flush(); next }
			/^Types:/ { t = substr($0, 8) } /^URIs:/ { u = substr($0, 6) }
			/^Suites:/ { s = substr($0, 8) } /^Signed-By:/ { k = $2 }
			END { flush() }' "$f"
	done
	for f in "$etc"/sources.list "$etc"/sources.list.d/*.list; do
		[[ -f $f ]] || continue
		sed -nE 's/^deb[[:space:]]+(\[([^]]*)\][[:space:]]+)?([^[:space:]]+)[[:space:]]+([^[:space:]]+).*/\3 \4 \2/p' "$f" |
			awk '{ k = "-"; if (match($0, /signed-by=[^ ]+/)) k = substr($0, RSTART + 10, RLENGTH - 10); print $1, $2, k }'
	done
}

# deb_uri SUITE: the machine's URI for the archive that serves SUITE (the security archive
# for *-security, else the main one), and its keyring ("-" for apt's default), as
# "URI KEYRING". The main archive is the entry of the host's own release.
deb_uri() {
	local suite=$1 host want line
	host=$(deb_host_codename)
	[[ -n $host ]] || die "cannot tell the host's Debian release (no VERSION_CODENAME in /etc/os-release)"
	want=$host
	[[ $suite == *-security ]] && want=$host-security
	line=$(deb_host_sources | awk -v w="$want" '$2 == w { print $1, $3; exit }')
	[[ -n $line ]] || die "no Debian apt entry for suite '$want' on this machine (/etc/apt/sources.list*):" \
		"the archive's URI is taken from it"
	echo "$line"
}

# deb_sources_line SUITE: a one-line apt source for SUITE's main component.
deb_sources_line() {
	local uri key line
	line=$(deb_uri "$1") || exit
	read -r uri key <<<"$line"
	if [[ $key == - ]]; then echo "deb $uri $1 main"
	else echo "deb [signed-by=$key] $uri $1 main"; fi
}

# deb_nonfree_stanza: a deb822 apt source for the non-free component of the host's own
# release (netperf, which flent drives, is only there; Ubuntu's is multiverse), with the URI
# and keyring of the machine's existing entry for that release: nothing here names a
# mirror. Printed for scripts/setup.sh, which writes it under /etc/apt/sources.list.d/.
deb_nonfree_stanza() {
	local host line uri key comp=non-free
	host=$(deb_host_codename)
	[[ -n $host ]] || die "cannot tell the host's Debian release (no VERSION_CODENAME in /etc/os-release)"
	# shellcheck source=/dev/null
	[[ $(. "${BBR_A_OS_RELEASE:-/etc/os-release}" && echo "${ID:-}") != ubuntu ]] || comp=multiverse
	line=$(deb_uri "$host") || exit
	read -r uri key <<<"$line"
	printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: %s\n' "$uri" "$host" "$comp"
	[[ $key == - ]] || printf 'Signed-By: %s\n' "$key"
}

# deb_apt_opts: the options that make apt-get/apt-cache use the private lists (array).
deb_apt_opts() {
	DEB_APT_OPTS=(-o "Dir::Etc::sourcelist=$DEB_APT_DIR/sources.list" -o Dir::Etc::sourceparts=-
		-o "Dir::State::Lists=$DEB_APT_DIR/lists" -o "Dir::Cache=$DEB_APT_DIR/cache"
		-o Dir::State::status=/dev/null -o Dir::Cache::pkgcache=pkgcache.bin
		-o Dir::Cache::srcpkgcache= -o Acquire::Languages=none
		-o Acquire::IndexTargets::deb::DEP-11::DefaultEnabled=false
		-o Acquire::IndexTargets::deb::DEP-11-icons-small::DefaultEnabled=false
		-o Acquire::IndexTargets::deb::DEP-11-icons::DefaultEnabled=false
		-o Acquire::IndexTargets::deb::DEP-11-icons-hidpi::DefaultEnabled=false
		-o Acquire::IndexTargets::deb::Contents-deb::DefaultEnabled=false
		-o APT::Sandbox::User="$(id -un)")
}

# deb_update [force]: write the private sources.list and run 'apt-get update' on it when the
# lists are missing, older than DEB_LISTS_MAX_AGE_H, or made for other suites (or with
# 'force'). A failed update keeps the lists there were (look-ups then use them, or the cache).
deb_update() {
	local force=${1:-} src stamp=$DEB_APT_DIR/.updated s
	src=$(for s in $DEB_SUITES; do deb_sources_line "$s"; done) || exit
	mkdir -p "$DEB_APT_DIR/lists/partial" "$DEB_APT_DIR/cache/archives/partial"
	if [[ -z $force && -f $stamp && $(cat "$DEB_APT_DIR/sources.list" 2>/dev/null) == "$src" &&
		-n $(find "$stamp" -mmin -$((DEB_LISTS_MAX_AGE_H * 60)) 2>/dev/null) ]]; then
		return 0
	fi
	lock apt
	[[ -z $force && -f $stamp && $(cat "$DEB_APT_DIR/sources.list" 2>/dev/null) == "$src" &&
		-n $(find "$stamp" -mmin -$((DEB_LISTS_MAX_AGE_H * 60)) 2>/dev/null) ]] && { unlock; return 0; }
	need apt-get
	printf '%s\n' "$src" >"$DEB_APT_DIR/sources.list"
	deb_apt_opts
	log "updating the private package lists ($(echo $DEB_SUITES)) in $DEB_APT_DIR"
	if apt-get -q "${DEB_APT_OPTS[@]}" -o Acquire::AllowReleaseInfoChange=true update >"$DEB_APT_DIR/update.log" 2>&1 &&
		! grep -qE '^(W|E|Err):' "$DEB_APT_DIR/update.log"; then
		touch "$stamp"
	else
		grep -E '^(W|E|Err):' "$DEB_APT_DIR/update.log" >&2 || true
		log "warning: 'apt-get update' of the private lists failed (log: $DEB_APT_DIR/update.log)"
	fi
	unlock
}

# deb_apt_cache ARGS / deb_apt_get ARGS: apt on the private lists.
deb_apt_cache() { deb_apt_opts; apt-cache "${DEB_APT_OPTS[@]}" "$@"; }
deb_apt_get() { deb_apt_opts; apt-get -q "${DEB_APT_OPTS[@]}" "$@"; }

# deb_candidate PKG: "VERSION SUITE" of the version apt would take (its first source).
deb_candidate() {
	deb_apt_cache policy "$1" 2>/dev/null | awk '
		/^  Candidate:/ { c = $2; next }
		/^  Version table:/ { t = 1; next }
		!t || c == "(none)" { next }
		$2 ~ /:\/\// { if (f) { split($3, a, "/"); print c, a[1]; exit } next }
		{ f = ($1 == c || ($1 == "***" && $2 == c)) }'
}

# deb_choose_releases: from lines "H RELEASE" (a linux-headers-RELEASE package) and
# "I RELEASE" (a linux-image-RELEASE[-unsigned] one) on stdin, "SERIES RELEASE" for every
# series with a release that has both, series in version order. A series' release: a Debian
# release's own kernel (X.Y.0-NN-amd64) if there is one, else the newest X.Y.Z+debNN-amd64
# of the lowest NN (the oldest Debian release shipping the series). Other flavours
# (-cloud, -rt), bullseye's 6.1.0-0.deb11.NN backports and release candidates (X.Y-amd64)
# are not candidates.
deb_choose_releases() {
	awk '$1 == "H" { h[$2] = 1 } $1 == "I" { i[$2] = 1 }
		END { for (r in h) if (r in i) print r }' |
		awk '/^[0-9]+\.[0-9]+\.0-[0-9]+-amd64$/ { split($0, v, "."); print v[1] "." v[2], 0, $0; next }
			/^[0-9]+\.[0-9]+\.[0-9]+\+deb[0-9]+(\.[0-9]+)?-amd64$/ {
				split($0, v, "."); d = $0; sub(/.*\+deb/, "", d); sub(/[.-].*/, "", d)
				print v[1] "." v[2], d, $0 }' |
		sort -k1,1V -k2,2n -k3,3Vr | awk '!seen[$1]++ { print $1, $3 }'
}
