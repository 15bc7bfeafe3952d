# testbed/lib/module.sh -- the congestion controls a run needs, and tcp_bbr_a: loading it,
# its parameters, unloading it or putting its parameters back at the end.
# shellcheck shell=sh
# POSIX sh, sourced by scenario.sh; defines functions and their state only. Uses
# scenario.sh's die, log, param and TB_DIR; reads MODULE_PARAMS (the run's k=v words).
{

# The loaded module shows itself here; BBR_A_MODULE_DIR points the functions at a stand-in
# (tests/unit/test_testbed_module.py).
MODULE_DIR=${BBR_A_MODULE_DIR:-/sys/module/tcp_bbr_a}
CC_ALLOWED=/proc/sys/net/ipv4/tcp_allowed_congestion_control
MODULE_KO= # the tcp_bbr_a.ko to insmod; module_prepare sets it
MODULE_LOADED_HERE=0 # 1: this run insmod-ed the module, and unloads it at the end
# The modules of --insmod this run loaded (module names, the last loaded first); module_cleanup
# unloads them.
CC_LOADED_HERE=
# Parameters this run changed on a module it found loaded: "name=value found" words (the
# module's parameters are numbers), the first value found for each; module_cleanup writes
# them back.
MODULE_PARAMS_FOUND=

cc_available() {
	read -r have < /proc/sys/net/ipv4/tcp_available_congestion_control
	case " $have " in *" $1 "*) return 0 ;; esac
	return 1
}
# kernel_cc CC: KCC = the name the kernel registers CC under. bbr3 is BBRv3, which exists only
# as a kernel patch (BBR_A_UML_PATCH, docs/backends.md) and registers as "bbr" in a kernel
# built with it; every other name is its own. Shell builtins only (see module_prepare).
kernel_cc() {
	KCC=$1
	[ "$1" = bbr3 ] && KCC=bbr
	return 0
}
# bbr3_check: the kernel's bbr is BBRv3 (tcp_bbr's version, built in or loaded), or die.
bbr3_check() {
	bbr_version=none
	[ -r /sys/module/tcp_bbr/version ] && read -r bbr_version < /sys/module/tcp_bbr/version
	[ "$bbr_version" = 3 ] ||
		die "bbr3: this kernel's bbr is not BBRv3 (tcp_bbr version: $bbr_version); a UML kernel built with BBR_A_UML_PATCH has it (docs/backends.md)"
}
# the congestion controls tcp_bbr_a.ko registers
is_module_cc() { case $1 in bbr_a | bbr_a_fair | bbq | da_bbr) return 0 ;; esac; return 1; }

# module_prepare CC...: make each cc available, in this order: tcp_bbr_a is insmod-ed with
# the run's parameters, or, found loaded, gets them written to its parameter files; other
# ccs are modprobe-d where the kernel does not have them yet.
#
# With a seeded guest (UML backend) every fork and exec draws from the guest's RNG, which
# then picks ports, sequence numbers and iperf3 cookies: runs that are to be compared must
# create the same processes before their flows. So scenario.sh passes the ccs of --load
# first, the checks use shell builtins only, and which cc this run uses changes nothing here.
module_prepare() {
	MODULE_KO=${BBR_A_KO:-$TB_DIR/../tcp_bbr_a.ko}
	for c in "$@"; do
		if is_module_cc "$c"; then
			if [ ! -d "$MODULE_DIR" ]; then
				[ -f "$MODULE_KO" ] || die "$c is not loaded and $MODULE_KO does not exist (set BBR_A_KO)"
				# shellcheck disable=SC2086 # one word per parameter
				insmod "$MODULE_KO" $MODULE_PARAMS || die "insmod $MODULE_KO$MODULE_PARAMS failed"
				MODULE_LOADED_HERE=1
				log "loaded $MODULE_KO$MODULE_PARAMS (unloaded again at the end)"
			elif [ "$MODULE_LOADED_HERE" = 0 ]; then
				module_set_params
			fi
		elif kernel_cc "$c" && ! cc_available "$KCC"; then
			modprobe "tcp_$KCC" || log "modprobe tcp_$KCC failed"
		fi
		kernel_cc "$c"
		[ "$c" != bbr3 ] || bbr3_check
		cc_available "$KCC" ||
			die "congestion control $c is not available (have: $(cat /proc/sys/net/ipv4/tcp_available_congestion_control))"
		cc_allow "$KCC"
	done
}

# cc_allow KCC: the sender namespaces may make KCC their default: a cc the kernel restricts
# (one that does not say TCP_CONG_NON_RESTRICTED, as vegas, and is not the initial
# namespace's default) joins tcp_allowed_congestion_control; module_cleanup puts the list
# back. bbr, cubic and tcp_bbr_a's are allowed already: nothing happens for them.
CC_ALLOWED_FOUND=
cc_allow() {
	read -r allowed < "$CC_ALLOWED"
	case " $allowed " in *" $1 "*) return 0 ;; esac
	[ -n "$CC_ALLOWED_FOUND" ] || CC_ALLOWED_FOUND="$allowed "
	echo "$allowed $1" > "$CC_ALLOWED" || die "cannot allow $1 in $CC_ALLOWED"
}

# module_insmod LIST: load the modules of LIST (comma separated .ko files: congestion
# controls the kernel lacks, their dependencies first, and a --module-src module), each one
# not loaded yet; a module that does not load ends the run. Runs without --insmod do nothing
# here (no process: see module_prepare).
module_insmod() {
	[ -n "$1" ] || return 0
	_ifs=$IFS
	IFS=,
	set -f
	# shellcheck disable=SC2086 # split at the commas
	set -- $1
	IFS=$_ifs
	set +f
	for f in "$@"; do
		m=${f##*/}
		m=${m%%.ko*}
		[ ! -d "/sys/module/$m" ] || continue
		[ -f "$f" ] || die "--insmod: no module file $f"
		insmod "$f" || die "insmod $f failed: a congestion control this run needs did not load"
		CC_LOADED_HERE="$m $CC_LOADED_HERE"
		log "loaded $f (unloaded again at the end)"
	done
}

# rmmod_retry MODULE: unload it, retrying while the namespaces' sockets go away
# (asynchronously); a module still in use is left loaded, said on stderr.
rmmod_retry() {
	n=0
	until rmmod "$1" 2>/dev/null; do
		n=$((n + 1))
		[ $n -lt 20 ] || { log "$1 still in use: left loaded"; return 0; }
		sleep 0.2
	done
}

# module_set_params: MODULE_PARAMS into the loaded module's parameter files, each value
# found there remembered first.
module_set_params() {
	for p in $MODULE_PARAMS; do
		f=$MODULE_DIR/parameters/${p%%=*}
		[ -w "$f" ] && read -r found < "$f" && echo "${p#*=}" > "$f" ||
			die "tcp_bbr_a is loaded and parameter ${p%%=*} cannot be set at run time: rmmod tcp_bbr_a first"
		case " $MODULE_PARAMS_FOUND " in
		*" ${p%%=*}="*) ;; # given twice: the value before the first change counts
		*) MODULE_PARAMS_FOUND="$MODULE_PARAMS_FOUND ${p%%=*}=$found" ;;
		esac
	done
}

# module_cleanup: leave tcp_bbr_a as the run found it: unloaded if the run loaded it,
# otherwise with the parameter values it had; the modules of --insmod it loaded unloaded.
module_cleanup() {
	if [ -n "$CC_ALLOWED_FOUND" ]; then
		echo "$CC_ALLOWED_FOUND" > "$CC_ALLOWED" || log "could not set $CC_ALLOWED back to: $CC_ALLOWED_FOUND"
		CC_ALLOWED_FOUND=
	fi
	[ "$MODULE_LOADED_HERE" = 0 ] || rmmod_retry tcp_bbr_a
	for m in $CC_LOADED_HERE; do rmmod_retry "$m"; done
	CC_LOADED_HERE=
	[ -n "$MODULE_PARAMS_FOUND" ] || return 0
	for p in $MODULE_PARAMS_FOUND; do
		echo "${p#*=}" > "$MODULE_DIR/parameters/${p%%=*}" ||
			log "could not set tcp_bbr_a parameter ${p%%=*} back to ${p#*=}"
	done
	log "tcp_bbr_a parameters set back to the values found:$MODULE_PARAMS_FOUND"
	MODULE_PARAMS_FOUND=
}

# module_record: the module's version (MODULE_VERSION, none when it is not loaded) and,
# into params.env, the parameter values in effect and its srcversion. Shell builtins only:
# a process per parameter would move a seeded UML run (each process draws from the guest's
# random numbers) whenever the module's parameter count changed.
module_record() {
	MODULE_VERSION=none
	[ -d "$MODULE_DIR" ] || return 0
	MODULE_VERSION=
	[ -r "$MODULE_DIR/version" ] && read -r MODULE_VERSION < "$MODULE_DIR/version"
	[ -n "$MODULE_VERSION" ] ||
		MODULE_VERSION=$(modinfo -F version "$MODULE_KO" 2>/dev/null) || MODULE_VERSION=unknown
	[ -n "$MODULE_VERSION" ] || MODULE_VERSION=unknown
	effective=
	for f in "$MODULE_DIR"/parameters/*; do
		[ -r "$f" ] && read -r v < "$f" && effective="${effective:+$effective }${f##*/}=$v"
	done
	param module_params_effective "$effective"
	src=
	[ -r "$MODULE_DIR/srcversion" ] && read -r src < "$MODULE_DIR/srcversion"
	param module_srcversion "$src"
}
}
