#!/usr/bin/python3
"""Generates the C++ sandbox's seccomp filters (raw BPF, as `bwrap --seccomp FD` reads them).

Run with Debian's python3-seccomp (libseccomp's own bindings):

    /usr/bin/python3 apps/server/seccomp/generate.py

It writes run-code-x86_64.bpf and run-code-aarch64.bpf beside itself (libseccomp generates a
filter for another architecture as well as for this one). The server uses the committed files and
refuses to run programs natively when the one for its architecture is missing.

The model is Compiler Explorer's nsjail sandbox and Docker's default profile: everything a
compiler and an ordinary program need is allowed; the kernel interfaces a program has no use for,
and that most kernel exploits go through, fail with EPERM (EAFNOSUPPORT for socket families,
ENOSYS for clone3, whose flags a filter cannot see, so that libc falls back to clone). A system call of another
architecture or ABI (32-bit int 0x80, x32) kills the process.
"""

import errno
import os
import sys

import seccomp

HERE = os.path.dirname(os.path.abspath(__file__))

# Kernel interfaces no submitted program needs.
DENIED = [
    # asynchronous I/O rings and kernel introspection
    "io_uring_setup", "io_uring_enter", "io_uring_register",
    "perf_event_open", "bpf", "userfaultfd", "lookup_dcookie", "kcmp",
    "fanotify_init", "syslog",
    # the kernel keyring
    "add_key", "keyctl", "request_key",
    # other processes' memory
    "ptrace", "process_vm_readv", "process_vm_writev", "process_madvise",
    # namespaces and mounts
    "unshare", "setns", "mount", "umount2", "pivot_root", "chroot",
    "open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",
    "open_by_handle_at", "name_to_handle_at", "quotactl", "quotactl_fd",
    # the machine itself
    "reboot", "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
    "swapon", "swapoff", "acct", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
    "sethostname", "setdomainname", "iopl", "ioperm", "vhangup", "uselib", "ustat", "sysfs",
    "_sysctl", "nfsservctl", "vm86", "vm86old", "create_module", "get_kernel_syms",
    "query_module", "mbind", "set_mempolicy", "migrate_pages", "move_pages",
]

# clone() flags that make namespaces (CLONE_NEWTIME only exists through clone3)
CLONE_NAMESPACE_FLAGS = [
    0x00020000,  # CLONE_NEWNS
    0x02000000,  # CLONE_NEWCGROUP
    0x04000000,  # CLONE_NEWUTS
    0x08000000,  # CLONE_NEWIPC
    0x10000000,  # CLONE_NEWUSER
    0x20000000,  # CLONE_NEWPID
    0x40000000,  # CLONE_NEWNET
]

AF_UNIX = 1


def build(arch):
    f = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    if arch != seccomp.Arch.NATIVE:
        f.remove_arch(seccomp.Arch.NATIVE)
        f.add_arch(arch)
    # a system call of another architecture or ABI is never legitimate here
    f.set_attr(seccomp.Attr.ACT_BADARCH, seccomp.KILL_PROCESS)
    eperm = seccomp.ERRNO(errno.EPERM)
    for name in DENIED:
        try:
            f.add_rule(eperm, name)
        except (RuntimeError, ValueError):
            pass  # not a system call on this architecture
    # sockets: only local ones (AF_UNIX); AF_VSOCK, AF_NETLINK, AF_PACKET… are refused, since
    # AF_VSOCK is not isolated by the network namespace
    for name in ("socket", "socketpair"):
        f.add_rule(seccomp.ERRNO(errno.EAFNOSUPPORT), name, seccomp.Arg(0, seccomp.NE, AF_UNIX))
    # personality: only the query and plain Linux (glibc and g++ ask; setarch-style changes such
    # as ADDR_NO_RANDOMIZE or READ_IMPLIES_EXEC are refused)
    # (a rule compares an argument once, so "neither 0 nor 0xffffffff" is spelt bit by bit: some
    # low bit set with the top bit clear, or some low bit clear with the top bit set; the kernel
    # reads the low 32 bits only)
    top = 0x80000000
    for bit in range(31):
        f.add_rule(eperm, "personality", seccomp.Arg(0, seccomp.MASKED_EQ, (1 << bit) | top, 1 << bit))
        f.add_rule(eperm, "personality", seccomp.Arg(0, seccomp.MASKED_EQ, (1 << bit) | top, top))
    for flag in CLONE_NAMESPACE_FLAGS:
        f.add_rule(eperm, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag))
    f.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    return f


def main():
    targets = {"x86_64": seccomp.Arch.X86_64, "aarch64": seccomp.Arch.AARCH64}
    for name, arch in targets.items():
        out = os.path.join(HERE, f"run-code-{name}.bpf")
        with open(out + ".tmp", "wb") as file:
            build(arch).export_bpf(file)
        os.replace(out + ".tmp", out)
        print(f"wrote {out} ({os.path.getsize(out)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
