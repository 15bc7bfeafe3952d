# SPDX-License-Identifier: GPL-2.0
#
# Out-of-tree build of tcp_bbr_a.ko (the kbuild rules are in Kbuild).
#
#   make                   build against the running kernel
#   make KDIR=<dir>        build against another kernel's build tree/headers
#   make install           install into /lib/modules/<KDIR's release>/extra and depmod that
#                          release (root; INSTALL_MOD_PATH=<dir> stages under <dir> instead)
#   make uninstall         remove what make install put there, and depmod
#   make dkms-install      copy the module's sources to /usr/src/tcp_bbr_a-<version>, add
#                          them to DKMS and build and install them for KDIR's release (root)
#   make dkms-uninstall    remove that version from DKMS (every kernel) and /usr/src
#   make version           print the version (dkms.conf's PACKAGE_VERSION)
#   make clean
#
# Extra kbuild variables pass through, e.g. `make W=1` or `make C=2`.

KDIR ?= /lib/modules/$(shell uname -r)/build
PWD := $(CURDIR)

# The one place the version is written; Kbuild reads it there too.
VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\([^"]*\)"$$/\1/p' $(CURDIR)/dkms.conf)
# The release of the kernel in KDIR, as uname -r and /lib/modules name it: the one compiled
# into its modules (UTS_RELEASE). Not include/config/kernel.release (`make kernelrelease`):
# Debian's 5.10 and 6.1 headers hold the upstream version there (6.1.192 for 6.1.0-NN-amd64).
KVER ?= $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"$$/\1/p' \
	$(KDIR)/include/generated/utsrelease.h 2>/dev/null)
MODDIR = $(INSTALL_MOD_PATH)/lib/modules/$(KVER)
DKMS_SRC = /usr/src/tcp_bbr_a-$(VERSION)
# What a DKMS source directory holds: what the build reads, and the licence.
DKMS_FILES = Makefile Kbuild dkms.conf LICENSE bbr_a_core.c include algos

all: modules

$(KDIR)/Makefile:
	@echo "error: no kernel build tree at $(KDIR)" >&2
	@echo "  install your kernel's headers (Debian/Ubuntu: apt-get install linux-headers-$$(uname -r))" >&2
	@echo "  or point KDIR at a configured kernel tree: make KDIR=/path/to/build" >&2
	@exit 1

modules: $(KDIR)/Makefile
	$(MAKE) -C $(KDIR) M=$(PWD) $@

check-kver: $(KDIR)/Makefile
	@test -n "$(KVER)" || { echo "error: cannot tell the release of the kernel in $(KDIR)" \
		"(no include/generated/utsrelease.h); give it: make KVER=..." >&2; exit 1; }

# extra/ on every kernel: kbuild's default for external modules is extra/ up to 6.x and
# updates/ later (Debian's 6.12). DKMS installs into updates/dkms/, which depmod prefers, so
# a DKMS install wins over this one when both are there.
# KERNELRELEASE: the directory modules_install fills is the one depmod reads below.
modules_install: check-kver
	$(MAKE) -C $(KDIR) M=$(PWD) KERNELRELEASE=$(KVER) INSTALL_MOD_DIR=extra modules_install

install: modules_install
	depmod $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KVER)

uninstall: check-kver
	rm -f $(MODDIR)/extra/tcp_bbr_a.ko $(MODDIR)/extra/tcp_bbr_a.ko.gz \
		$(MODDIR)/extra/tcp_bbr_a.ko.xz $(MODDIR)/extra/tcp_bbr_a.ko.zst
	depmod $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KVER)

dkms-install: check-kver
	rm -rf $(DKMS_SRC)
	mkdir -p $(DKMS_SRC)
	cp -R $(DKMS_FILES) $(DKMS_SRC)/
	dkms status -m tcp_bbr_a -v $(VERSION) | grep -q . || dkms add -m tcp_bbr_a -v $(VERSION)
	dkms install -m tcp_bbr_a -v $(VERSION) -k $(KVER) --kernelsourcedir $(KDIR)

dkms-uninstall:
	dkms status -m tcp_bbr_a -v $(VERSION) | grep -q . && \
		dkms remove -m tcp_bbr_a -v $(VERSION) --all || true
	rm -rf $(DKMS_SRC)

version:
	@echo $(VERSION)

# Works without a kernel tree too.
clean:
	rm -rf *.o *.ko *.mod *.mod.c .*.cmd .*.d Module.symvers modules.order \
		.tmp_versions algos/*.o algos/.*.cmd algos/.*.d

.PHONY: all modules modules_install install uninstall check-kver dkms-install \
	dkms-uninstall version clean
