/**
 * Python helpers a warm worker uses to keep each child it forks away from itself and from the
 * children before and after it (docs/security.md, "Sandbox"): a seccomp filter installed in the child before
 * any untrusted code runs, and PR_SET_DUMPABLE 0 on the worker, so that a process of the same uid
 * can neither attach to it nor open its memory or file descriptors through /proc.
 *
 * The filter (x86_64 and aarch64; elsewhere `install_child_guard` returns False and the worker
 * says so) answers EPERM to: ptrace and process_vm_readv/writev; unshare, setns, and clone with
 * any CLONE_NEW* flag (no namespaces of its own: no private tmpfs, no new user namespace); the
 * mount family; kill, tkill, tgkill, rt_sigqueueinfo and rt_tgsigqueueinfo aimed at pid 1, at a
 * protected pid (its worker) or at any process group or -1; the pidfd calls; bpf,
 * perf_event_open, userfaultfd, io_uring, keyctl and the module and reboot calls. clone3 answers
 * ENOSYS, so libc falls back to clone, whose flags the filter can read. Any other architecture's
 * system calls (the x32 and i386 entry points) answer ENOSYS.
 */
export const GUARD_PY = String.raw`
import ctypes as _ctypes, platform as _platform, struct as _struct

_LIBC = _ctypes.CDLL(None, use_errno=True)
_LIBC.prctl.argtypes = [_ctypes.c_int, _ctypes.c_ulong, _ctypes.c_ulong, _ctypes.c_ulong, _ctypes.c_ulong]

_SYSCALLS = {
    "x86_64": dict(arch=0xC000003E, x32=True, clone=56, clone3=435,
        signal=[62, 200, 234, 129, 297],
        deny=[101, 310, 311, 272, 308, 434, 438, 424, 165, 166, 155, 161, 321, 298, 323, 250, 248, 249,
              425, 426, 427, 428, 429, 430, 431, 432, 433, 442, 312, 303, 304, 279, 256, 172, 173, 246,
              320, 175, 313, 176, 169, 167, 168, 163, 179, 103, 212, 170, 171, 153, 134]),
    "aarch64": dict(arch=0xC00000B7, x32=False, clone=220, clone3=435,
        signal=[129, 130, 131, 138, 240],
        deny=[117, 270, 271, 97, 268, 434, 438, 424, 40, 39, 41, 51, 280, 241, 282, 219, 217, 218,
              425, 426, 427, 428, 429, 430, 431, 432, 433, 442, 272, 264, 265, 239, 238, 104, 294,
              105, 273, 106, 142, 224, 225, 89, 60, 116, 18, 161, 162, 58]),
}
_CLONE_NEW = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000 | 0x00000080
_RET_ALLOW, _RET_EPERM, _RET_ENOSYS = 0x7FFF0000, 0x00050000 | 1, 0x00050000 | 38
_LD, _JEQ, _JGE, _JSET, _RET = 0x20, 0x15, 0x35, 0x45, 0x06
_NR, _ARCH, _ARG0 = 0, 4, 16


def _filter(table, protected):
    prog, labels = [], {}

    def op(code, k=0, jt=0, jf=0):
        prog.append((code, jt, jf, k))

    op(_LD, _ARCH)
    op(_JEQ, table["arch"], 0, "nosys")
    op(_LD, _NR)
    if table["x32"]:
        op(_JGE, 0x40000000, "nosys", 0)
    for nr in table["deny"]:
        op(_JEQ, nr, "deny", 0)
    op(_JEQ, table["clone3"], "nosys", 0)
    op(_JEQ, table["clone"], "clone", 0)
    for nr in table["signal"]:
        op(_JEQ, nr, "target", 0)
    op(_RET, _RET_ALLOW)
    labels["clone"] = len(prog)
    op(_LD, _ARG0)
    op(_JSET, _CLONE_NEW, "deny", 0)
    op(_RET, _RET_ALLOW)
    labels["target"] = len(prog)
    op(_LD, _ARG0)
    op(_JEQ, 0, "allow", 0)
    op(_JGE, 0x80000000, "deny", 0)
    for pid in [1] + list(protected):
        op(_JEQ, pid, "deny", 0)
    labels["allow"] = len(prog)
    op(_RET, _RET_ALLOW)
    labels["deny"] = len(prog)
    op(_RET, _RET_EPERM)
    labels["nosys"] = len(prog)
    op(_RET, _RET_ENOSYS)
    out = b""
    for i, (code, jt, jf, k) in enumerate(prog):
        jt = labels[jt] - i - 1 if isinstance(jt, str) else jt
        jf = labels[jf] - i - 1 if isinstance(jf, str) else jf
        out += _struct.pack("=HBBI", code, jt, jf, k)
    return out


class _Fprog(_ctypes.Structure):
    _fields_ = [("len", _ctypes.c_ushort), ("filter", _ctypes.c_void_p)]


def guard_supported():
    return _platform.machine() in _SYSCALLS


def install_child_guard(protected):
    """The seccomp filter above, for this process and everything it starts. False when unavailable."""
    table = _SYSCALLS.get(_platform.machine())
    if table is None:
        return False
    code = _filter(table, protected)
    buf = _ctypes.create_string_buffer(code, len(code))
    prog = _Fprog(len(code) // 8, _ctypes.cast(buf, _ctypes.c_void_p).value)
    if _LIBC.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS
        return False
    return _LIBC.prctl(22, 2, _ctypes.addressof(prog), 0, 0) == 0  # PR_SET_SECCOMP, SECCOMP_MODE_FILTER


def set_subreaper():
    """PR_SET_CHILD_SUBREAPER: orphans of this process's descendants become its children, to be reaped here."""
    return _LIBC.prctl(36, 1, 0, 0, 0) == 0


def set_undumpable():
    """PR_SET_DUMPABLE 0: no ptrace, no /proc/PID/mem or /proc/PID/fd for processes of the same uid."""
    return _LIBC.prctl(4, 0, 0, 0, 0) == 0
`;
