#!/bin/sh
# kcc.sh: the compiler command of the kernel builds (scripts/build.sh):
# ccache in depend mode, or the compiler alone for a source that holds an
# .incbin directive.
# Depend mode: on a miss ccache runs only the compiler, whose -MMD output
# (kbuild's dependency file) names the headers the next lookup hashes; its
# default mode runs the preprocessor once more per miss. 12 kernel objects
# compiled with an empty cache took 16.7 s of CPU in the default mode,
# 14.1 s in depend mode, as many as without ccache (3 runs each,
# 2026-11-27); a rebuild of kernel/trace/ in depend mode hit all 73
# objects, and kbuild's .cmd files kept their header dependencies.
# Its limit here: ccache 4.7.5 looks for .incbin only in preprocessor
# output, which depend mode never makes, and the file .incbin reads is not
# in the dependency output. A cached arch/x86/boot/compressed/piggy.o
# would then hold the previous vmlinux whenever mkpiggy wrote the same
# piggy.S (the same sizes). In 6.1 .incbin appears in sources only (piggy.S
# as mkpiggy writes it, rmpiggy.S, usr/initramfs_data.S, the powerpc vDSO
# wrappers, kernel/configs.c, ...), in no header, so the source decides.
# Host programs keep ccache's default mode (HOSTCC in build.sh): with
# -MMD, depend mode would not hash the C library's headers they include.
# Usage: kcc.sh COMPILER ARGS... (kbuild passes the source last; every
# argument that names a .c or .S file is looked at all the same)
for a; do
	case $a in
	*.c | *.S)
		if [ -f "$a" ] && grep -q -e '\.incbin' -- "$a"; then
			exec "$@"
		fi
		;;
	esac
done
CCACHE_DEPEND=1 exec ccache "$@"
