# SPDX-License-Identifier: GPL-2.0
#
# Out-of-tree SMC-R. `make` builds the kernel module against the installed
# headers of Debian's 6.1 kernel (or the newest installed ones); KVER or
# KDIR select others. scripts/debug-kernel's build (-smcr-debug) is never
# the default.

KVER ?= $(shell ls -d /lib/modules/6.1.*/build 2>/dev/null | grep -v -- -smcr-debug/ | sort -V | tail -n1 | cut -d/ -f4)
ifeq ($(KVER),)
KVER := $(shell ls -d /lib/modules/*/build 2>/dev/null | grep -v -- -smcr-debug/ | sort -V | tail -n1 | cut -d/ -f4)
endif
KDIR ?= /lib/modules/$(KVER)/build
# test-only module the selftests load: it makes a function fail
FAIL_FUNC := $(CURDIR)/tools/testing/selftests/net/smc/fail_func

.PHONY: all modules clean distclean check sparse host-test fuzz selftests tools test demo \
	install

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# sparse over every file of the module
sparse:
	$(MAKE) -C $(KDIR) M=$(CURDIR) C=2 modules
	$(MAKE) -C $(KDIR) M=$(FAIL_FUNC) C=2 modules

# Kbuild's own clean of an external module deletes every object file
# below it, and so scripts/debug-kernel's kernel tree under build/ (half an
# hour to build again): the module's files are removed here instead, and
# build/ but that tree. distclean removes it too.
KBUILD_OUTPUTS := -name '*.o' -o -name '*.ko' -o -name '*.mod' \
	-o -name '*.mod.c' -o -name '.*.cmd' -o -name '.*.d' \
	-o -name modules.order -o -name Module.symvers

clean:
	find . \( -path ./build -o -path ./.git \) -prune -o -type f \
		\( $(KBUILD_OUTPUTS) \) -print0 | xargs -0r rm -f
	$(MAKE) -C tools/testing/host clean
	if [ -d build ]; then \
		find build -mindepth 1 -maxdepth 1 ! -name debug-kernel \
			-exec rm -rf {} +; \
	fi

distclean: clean
	rm -rf build

host-test:
	$(MAKE) -C tools/testing/host test

fuzz:
	$(MAKE) -C tools/testing/host fuzz

selftests:
	$(MAKE) -C tools/testing/selftests
	$(MAKE) -C $(KDIR) M=$(FAIL_FUNC) modules

tools:
	$(MAKE) -C tools/smc_run
	$(MAKE) -C tools/smcr
	$(MAKE) -C tools/smcss

# smcr.ko and rpcr.ko under /lib/modules/$(KVER)/updates, signed and
# compressed as the kernel's own modules are (scripts/modules-install:
# SIGN, SIGN_KEY, SIGN_CERT), the modprobe.d files that keep Linux's
# smc.ko and rpcrdma.ko from loading in their place, the tools under
# $(PREFIX)
PREFIX ?= /usr/local
install: modules tools
	scripts/modules-install $(KDIR) $(KVER) $(DESTDIR)
	for f in scripts/modprobe.d/*.conf; do \
		install -D -m 644 $$f $(DESTDIR)/etc/modprobe.d/$${f##*/}; \
	done
	install -D -m 755 build/tools/smcr $(DESTDIR)$(PREFIX)/sbin/smcr
	install -D -m 755 build/tools/smcss $(DESTDIR)$(PREFIX)/sbin/smcss
	install -D -m 755 tools/smc_run/smc_run \
		$(DESTDIR)$(PREFIX)/lib/smcr/smc_run
	install -D -m 755 build/smc_run/libsmc-preload.so \
		$(DESTDIR)$(PREFIX)/lib/smcr/libsmc-preload.so
	mkdir -p $(DESTDIR)$(PREFIX)/bin
	ln -sf ../lib/smcr/smc_run $(DESTDIR)$(PREFIX)/bin/smc_run
	for m in Documentation/*.8; do \
		install -D -m 644 $$m $(DESTDIR)$(PREFIX)/share/man/man8/$${m##*/}; \
	done

test:
	scripts/run-tests

demo:
	scripts/demo
