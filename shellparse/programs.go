package shellparse

import (
	"path"
	"strings"
)

// A glob used as a program path (/???/?m, /bin/r?, /usr/bin/[r]m) is
// expanded by bash against the files of the directory. The parser matches
// it against the names of the standard program directories instead — a
// built-in list, not the machine's files, so that the result does not
// depend on the machine — and reports every program it could name.

// programDirs are the standard program directories.
const programDirs = "/bin /usr/bin /sbin /usr/sbin /usr/local/bin"

// programNames are common program names of those directories (coreutils,
// util-linux, shells, interpreters, package managers, and the tools the
// danger rules name), one string so that nothing at package level can be
// changed. Every name is taken to be in every directory: a glob that
// could name a program names it.
const programNames = `
[ arch awk b2sum base32 base64 basename bash bc bunzip2 busybox bzip2 cat chattr chcon chgrp chmod chown chroot
chsh cksum clear cmp comm cp cpio crontab csh csplit curl cut dash date dd df diff dir dircolors dirname dmesg
doas du echo ed egrep env ex expand expr factor false fdisk fgrep file find findmnt flock fmt fold free fsck
gawk gdb getent git gpg grep groupadd groupdel groupmod groups gunzip gzip halt head hexdump hostname hostnamectl
id init insmod install ionice ip iptables ip6tables join journalctl kill killall kmod ksh last less link ln
locate logger login loginctl logname ls lsattr lsblk lsmod lsof make man md5sum mkdir mkfifo mkfs mkfs.ext4
mkfs.xfs mkfs.vfat mknod mkswap mktemp modprobe more mount mv nano nc ncat netcat netstat nft nice nl node nohup
nproc numfmt od openssl parted passwd paste patch perl php pidof pinky ping pkill poweroff pr printenv printf ps
ptx pwd python python2 python3 readlink realpath reboot renice reset rev rm rmdir rmmod route rsync ruby runuser
sash scp screen script sed seq service setfacl setsid sfdisk sh sha1sum sha224sum sha256sum sha384sum sha512sum
shred shuf shutdown sleep socat sort split ss ssh stat stdbuf strace stty su sudo sum swapoff swapon sync sysctl
systemctl tac tail tar tc tee telnet test timeout tmux top touch tr traceroute true truncate tsort tty tcsh
udevadm umount uname unexpand uniq unlink unzip update-grub uptime useradd userdel usermod users vdir vi vim
visudo wall watch wc wget whereis which who whoami wipefs xargs xfs_repair xxd yes zcat zip zsh
apt apt-get aptitude dnf dpkg pacman pip pip3 rpm snap yum zypper docker kubectl podman
`

// maxCandidates bounds the programs one glob may name; a glob matching
// more (/???/*) stays an unknown program.
const maxCandidates = 64

// globPrograms returns the paths in the standard program directories that
// the absolute glob pattern could name, at most maxCandidates; ok is false
// when it could name more, or the pattern is not one this matcher reads
// ([[:alpha:]] classes, a malformed bracket).
func globPrograms(pattern string) (paths []string, ok bool) {
	pattern = strings.ReplaceAll(pattern, "[!", "[^")
	if _, err := path.Match(pattern, ""); err != nil || strings.Contains(pattern, "[:") {
		return nil, false
	}
	dirPattern, namePattern := path.Split(pattern)
	dirPattern = path.Clean(dirPattern)
	for dir := range strings.FieldsSeq(programDirs) {
		if m, _ := path.Match(dirPattern, dir); !m {
			continue
		}
		for name := range strings.FieldsSeq(programNames) {
			if m, _ := path.Match(namePattern, name); m {
				if len(paths) == maxCandidates {
					return nil, false
				}
				paths = append(paths, dir+"/"+name)
			}
		}
	}
	return paths, true
}
