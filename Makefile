# SPDX-License-Identifier: GPL-2.0
#
# Out-of-tree build of tcp_bbr_a.ko (the kbuild rules are in Kbuild).
#
#   make                   build against the running kernel
#   make KDIR=<dir>        build against another kernel's build tree/headers
#   make install           modules_install into extra/ and depmod (root)
#   make clean
#
# Extra kbuild variables pass through, e.g. `make W=1` or `make C=2`.

KDIR ?= /lib/modules/$(shell uname -r)/build
PWD := $(CURDIR)

all: modules

$(KDIR)/Makefile:
	@echo "error: no kernel build tree at $(KDIR)" >&2
	@echo "  install your kernel's headers (Debian/Ubuntu: apt-get install linux-headers-$$(uname -r))" >&2
	@echo "  or point KDIR at a configured kernel tree: make KDIR=/path/to/build" >&2
	@exit 1

modules modules_install: $(KDIR)/Makefile
	$(MAKE) -C $(KDIR) M=$(PWD) $@

# Works without a kernel tree too.
clean:
	rm -rf *.o *.ko *.mod *.mod.c .*.cmd .*.d Module.symvers modules.order \
		.tmp_versions

install: modules_install
	depmod -A

.PHONY: all modules modules_install install clean
