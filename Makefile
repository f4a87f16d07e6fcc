# SPDX-License-Identifier: GPL-2.0
#
# Out-of-tree SMC-R. `make` builds the kernel module against the installed
# headers of Debian's 6.1 kernel (or the newest installed ones); KVER or
# KDIR select others.

KVER ?= $(shell ls -d /lib/modules/6.1.*/build 2>/dev/null | sort -V | tail -n1 | cut -d/ -f4)
ifeq ($(KVER),)
KVER := $(shell ls -d /lib/modules/*/build 2>/dev/null | sort -V | tail -n1 | cut -d/ -f4)
endif
KDIR ?= /lib/modules/$(KVER)/build
# test-only module the selftests load: it makes a function fail
FAIL_FUNC := $(CURDIR)/tools/testing/selftests/net/smc/fail_func

.PHONY: all modules clean check sparse host-test fuzz selftests tools test demo

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# sparse over every file of the module
sparse:
	$(MAKE) -C $(KDIR) M=$(CURDIR) C=2 modules
	$(MAKE) -C $(KDIR) M=$(FAIL_FUNC) C=2 modules

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C $(KDIR) M=$(FAIL_FUNC) clean
	$(MAKE) -C tools/testing/host clean
	rm -rf build

host-test:
	$(MAKE) -C tools/testing/host test

fuzz:
	$(MAKE) -C tools/testing/host fuzz

selftests:
	$(MAKE) -C tools/testing/selftests/net/smc
	$(MAKE) -C $(KDIR) M=$(FAIL_FUNC) modules

tools:
	$(MAKE) -C tools/smc_run
	$(MAKE) -C tools/smcr
	$(MAKE) -C tools/smcss

test:
	scripts/run-tests

demo:
	scripts/demo
