# shellcheck shell=bash
# Host-side helpers for the qemu test harness (sourced by run-pair, and
# by run-tests for guest_visible).
#
# Builds and caches the two boot artifacts for a given kernel release:
#   build/vm/<kver>/vmlinux         decompressed ELF kernel (booted via PVH,
#                                   which skips firmware + in-guest
#                                   decompression: ~8 s per guest under TCG)
#   build/vm/<kver>/initramfs.cpio  busybox + the few modules needed to mount
#                                   the host root over virtio-9p (stage-1)
# Both are rebuilt when the kernel image, its modules.dep, stage1-init or this
# file change (a content/stat hash is kept in build/vm/<kver>/stamp).

VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$VM_DIR/../.." && pwd)
BUILD_VM="$REPO/build/vm"

# Modules stage-1 loads (dependencies are resolved from modules.dep).
# virtio_net/rdma_rxe are not here: stage 2 modprobes them from the host root.
STAGE1_MODULES=(virtio_pci 9pnet_virtio 9p overlay)

# Default guest kernel: $SMCR_KVER, else the running kernel if installed in
# /boot, else the newest installed kernel of the project's base series (6.1;
# installing e.g. 6.12 for interop tests must not silently change the
# default), else the newest installed kernel; never scripts/debug-kernel's
# build (-smcr-debug), which is asked for by name.
DEFAULT_KSERIES=6.1
default_kver() {
	local k cands=()
	if [[ -n ${SMCR_KVER:-} ]]; then echo "$SMCR_KVER"; return; fi
	if [[ -r /boot/vmlinuz-$(uname -r) ]]; then uname -r; return; fi
	for k in /boot/vmlinuz-*; do
		k=${k#/boot/vmlinuz-}
		[[ $k == *-smcr-debug ]] && continue
		[[ -r /lib/modules/$k/modules.dep ]] && cands+=("$k")
	done
	((${#cands[@]})) || return 1
	printf '%s\n' "${cands[@]}" | sort -V | grep "^$DEFAULT_KSERIES\." | tail -n1 | grep . ||
		printf '%s\n' "${cands[@]}" | sort -V | tail -n1
}

die() { echo "run-pair: error: $*" >&2; exit 2; }

# guest_visible PATH: whether a guest sees PATH as the host has it. The
# guests mount the host's root over 9p but have tmpfs of their own on
# these; a tree, script or module under them is not there for a guest.
guest_visible() {
	case $1 in
	/tmp/* | /run/* | /var/tmp/* | /root/* | /proc/* | /sys/* | /dev/*) return 1 ;;
	esac
	return 0
}

# Locate extract-vmlinux (shipped with the kernel headers/source packages).
find_extract_vmlinux() {
	local c
	for c in /usr/src/linux-headers-*-common/scripts/extract-vmlinux \
		/usr/src/linux-source-*/scripts/extract-vmlinux; do
		[[ -x $c ]] && { echo "$c"; return 0; }
	done
	return 1
}

# Print the modules.dep path (relative to /lib/modules/KVER) for a module,
# followed by its dependencies' paths, one line, separated by spaces.
moddep_line() {
	local kver=$1 mod=$2
	# File names use either '-' or '_'; modules.dep keys are paths.
	awk -v m="$mod" -F: '
		{ n = $1; sub(/.*\//, "", n); sub(/\.ko(\.(xz|zst|gz))?$/, "", n);
		  gsub(/-/, "_", n); mm = m; gsub(/-/, "_", mm);
		  if (n == mm) { print $1 $2; exit } }' \
		"/lib/modules/$kver/modules.dep"
}

# Whether module NAME is built into KVER (modules.builtin lists its path)
builtin_module() {
	local kver=$1 name=$2
	grep -Eq "/${name//[-_]/[-_]}\.ko\$" "/lib/modules/$kver/modules.builtin"
}

# Emit module paths in load order (dependencies first), de-duplicated.
resolve_modules() {
	local kver=$1; shift
	local -A seen=()
	local order=()
	_visit() {
		local path=$1 line dep name
		[[ -n ${seen[$path]:-} ]] && return 0
		seen[$path]=1
		name=${path##*/}; name=${name%%.ko*}
		line=$(moddep_line "$kver" "$name")
		[[ -n $line ]] || die "module $name not in modules.dep of $kver"
		# shellcheck disable=SC2086 # split the dependency list on purpose
		set -- $line
		shift
		for dep in "$@"; do _visit "$dep"; done
		order+=("$path")
	}
	local m line
	for m in "$@"; do
		line=$(moddep_line "$kver" "$m")
		if [[ -z $line ]]; then
			# built into this kernel (virtio_pci is on 6.12): nothing to load
			builtin_module "$kver" "$m" && continue
			die "module $m not in modules.dep of $kver"
		fi
		_visit "${line%% *}"
	done
	printf '%s\n' "${order[@]}"
}

# Hash of everything the artifacts depend on.
artifact_stamp() {
	local kver=$1
	{
		stat -Lc '%n %s %Y' "/boot/vmlinuz-$kver" "/lib/modules/$kver/modules.dep" \
			/bin/busybox
		cat "$VM_DIR/stage1-init" "$VM_DIR/lib-host.sh"
	} | sha256sum | cut -d' ' -f1
}

# Copy one module into the initramfs tree, decompressing if needed (busybox
# insmod only takes plain .ko files).
install_module() {
	local src=$1 dstdir=$2 base
	base=${src##*/}
	case $src in
	*.ko.xz) xz -dc "$src" >"$dstdir/${base%.xz}" ;;
	*.ko.zst) zstd -qdc "$src" >"$dstdir/${base%.zst}" ;;
	*.ko.gz) gzip -dc "$src" >"$dstdir/${base%.gz}" ;;
	*) cp "$src" "$dstdir/$base" ;;
	esac
}

build_initramfs() {
	local kver=$1 out=$2 tree mod mods
	tree=$(mktemp -d)
	mkdir -p "$tree"/{bin,dev,proc,sys,newroot,lib/modules}
	cp /bin/busybox "$tree/bin/busybox"
	cp "$VM_DIR/stage1-init" "$tree/init"
	chmod 755 "$tree/init"
	: >"$tree/lib/modules/load-order"
	# resolved first, so that a failure stops here instead of vanishing
	# inside a process substitution
	mods=$(resolve_modules "$kver" "${STAGE1_MODULES[@]}") ||
		die "cannot resolve the stage-1 modules of $kver"
	while read -r mod; do
		install_module "/lib/modules/$kver/$mod" "$tree/lib/modules"
		mod=${mod##*/}
		echo "${mod%%.ko*}.ko" >>"$tree/lib/modules/load-order"
	done <<<"$mods"
	(cd "$tree" && find . -print0 | cpio --null -o -H newc --quiet) >"$out"
	rm -rf "$tree"
}

# ensure_artifacts KVER: (re)build the cached vmlinux/initramfs if stale.
# Sets VMLINUX and INITRAMFS.
ensure_artifacts() {
	local kver=$1 dir stamp ev tmp
	dir="$BUILD_VM/$kver"
	VMLINUX="$dir/vmlinux"
	INITRAMFS="$dir/initramfs.cpio"
	[[ -r /boot/vmlinuz-$kver ]] || die "no /boot/vmlinuz-$kver"
	[[ -r /lib/modules/$kver/modules.dep ]] || die "no modules for $kver"
	[[ -x /bin/busybox ]] || die "busybox missing (apt-get install busybox-static)"
	mkdir -p "$dir"
	# Serialize builds (two clones/sessions may race on the same dir).
	exec {lockfd}>"$dir/.lock"
	flock -w 300 "$lockfd" || die "timeout waiting for build lock $dir/.lock"
	stamp=$(artifact_stamp "$kver")
	if [[ -s $VMLINUX && -s $INITRAMFS && -f $dir/stamp &&
		$(<"$dir/stamp") == "$stamp" ]]; then
		exec {lockfd}>&-
		return 0
	fi
	echo "# building VM artifacts for $kver in $dir" >&2
	tmp=$(mktemp "$dir/vmlinux.XXXXXX")
	if grep -qx CONFIG_KASAN=y "/boot/config-$kver" 2>/dev/null; then
		# a KASAN kernel dies before its first line when entered
		# through PVH (its early code runs instrumented before KASAN's
		# shadow exists): boot the bzImage, a few seconds slower
		cp "/boot/vmlinuz-$kver" "$tmp"
	else
		ev=$(find_extract_vmlinux) || die "extract-vmlinux not found (install linux-headers or linux-source)"
		"$ev" "/boot/vmlinuz-$kver" >"$tmp" || { rm -f "$tmp"; die "extract-vmlinux failed"; }
	fi
	mv -f "$tmp" "$VMLINUX"
	tmp=$(mktemp "$dir/initramfs.XXXXXX")
	build_initramfs "$kver" "$tmp" || { rm -f "$tmp"; die "initramfs build failed"; }
	mv -f "$tmp" "$INITRAMFS"
	echo "$stamp" >"$dir/stamp"
	exec {lockfd}>&-
}
