/**
 * The candidate side of HumanEval scoring: a long-lived interpreter in its own sandbox that forks a
 * fresh child for every problem. The child takes its own process group, temp dir, resource limits
 * and seccomp filter, applies the official harness's reliability guard and swallowed stdio, runs
 * `prompt + completion`, then answers the judge's calls to the entry point over the plain-data
 * channel. It never sees the tests and never writes a verdict.
 *
 * Control protocol with the judge (on fd 3, one byte each way): "H" + "1"/"0" (hello, whether the
 * seccomp filter is available), "R" with a socket passed along (run a problem on it), "E" (end it),
 * answered "C" (everything the child started is gone, the scratch dir is empty and the System V IPC
 * objects it created are removed) or "D" (not).
 */
import { GUARD_PY } from '../../../sandbox/guard-py.js';
import { CODEC_PY } from './codec.js';

const WORKER_MAIN_PY = String.raw`
import contextlib, faulthandler, io, json, os, resource, shutil, signal, socket, struct, sys, time

CONFIG = json.loads(sys.argv[1])
CHANNEL_FD = 100
# Modules completions often import, loaded once here so that every forked child has them for free.
for _name in ("math", "re", "string", "itertools", "functools", "collections", "typing", "heapq", "bisect",
              "random", "statistics", "fractions", "decimal", "hashlib", "copy", "operator", "datetime",
              "numbers", "array", "textwrap", "unicodedata", "cmath", "enum", "dataclasses", "shutil",
              "subprocess", "platform"):
    try:
        __import__(_name)
    except Exception:
        pass


class WriteOnlyStringIO(io.StringIO):
    """Swallows output; raises when read, as the official harness does for stdin."""

    def read(self, *args, **kwargs):
        raise IOError

    def readline(self, *args, **kwargs):
        raise IOError

    def readlines(self, *args, **kwargs):
        raise IOError

    def readable(self, *args, **kwargs):
        return False


class redirect_stdin(contextlib._RedirectStream):
    _stream = "stdin"


@contextlib.contextmanager
def swallow_io():
    stream = WriteOnlyStringIO()
    with contextlib.redirect_stdout(stream):
        with contextlib.redirect_stderr(stream):
            with redirect_stdin(stream):
                yield


def reliability_guard():
    """The official list of disabled functions: a guard against accidents, not a sandbox."""
    faulthandler.disable()
    import builtins
    builtins.exit = None
    builtins.quit = None
    os.environ["OMP_NUM_THREADS"] = "1"
    for name in ("kill", "system", "putenv", "remove", "removedirs", "rmdir", "fchdir", "setuid",
                 "fork", "forkpty", "killpg", "rename", "renames", "truncate", "replace", "unlink",
                 "fchmod", "fchown", "chmod", "chown", "chroot", "lchflags", "lchmod", "lchown",
                 "getcwd", "chdir"):
        setattr(os, name, None)
    import shutil
    shutil.rmtree = None
    shutil.move = None
    shutil.chown = None
    import subprocess
    subprocess.Popen = None
    builtins.help = None
    for name in ("ipdb", "joblib", "resource", "psutil", "tkinter"):
        sys.modules[name] = None


def program_frames(e, namespace):
    """The [line, function] of each frame of the program itself (its code runs in that namespace)."""
    out, tb = [], e.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        if frame.f_globals is namespace and frame.f_code.co_filename == "<string>":
            out.append([tb.tb_lineno, frame.f_code.co_name[:100]])
        tb = tb.tb_next
    return out


RESERVE = None


def describe_safely(e, namespace):
    """describe_exception even when the program used up its memory: a reserve is let go first."""
    global RESERVE
    RESERVE = None
    try:
        return describe_exception(e, program_frames(e, namespace))
    except MemoryError:
        return {"type": type(e).__name__, "builtin": True, "text": "", "frames": []}


def keep_reserve():
    global RESERVE
    if RESERVE is None:
        try:
            RESERVE = bytearray(1 << 20)
        except MemoryError:
            pass


def serve(sock):
    job = recv_frame(sock)
    program, entry = job["program"], job["entry"]
    reliability_guard()
    with swallow_io():
        namespace = {}
        keep_reserve()
        try:
            exec(program, namespace)
            failure = None
        except BaseException as e:
            failure = describe_safely(e, namespace)
        # Here the exception and the frames it held (and their memory) are gone.
        if failure is not None:
            send_frame(sock, ["raised", failure])
            return
        fn = namespace.get(entry)
        send_frame(sock, ["ready", fn is not None])
        while True:
            keep_reserve()
            try:
                msg = recv_frame(sock)
            except (EOFError, OSError):
                return
            if type(msg) is not list or len(msg) != 4 or msg[0] != "call":
                return
            seq = msg[1]
            try:
                args, kwargs = decode(msg[2]), decode(msg[3])
                reply = ["ok", seq, encode(fn(*args, **kwargs))]
            except BaseException as e:
                reply = ["raised", seq, describe_safely(e, namespace)]
            try:
                send_frame(sock, reply)
            except ProtocolError:
                send_frame(sock, ["ok", seq, {"o": "<a value too large to send>"}])


def child_main(fd, worker_pid):
    code = 0
    try:
        os.setsid()
        os.dup2(fd, CHANNEL_FD)
        null = os.open("/dev/null", os.O_RDWR)
        for target in (0, 1, 2):
            os.dup2(null, target)
        os.closerange(3, CHANNEL_FD)
        os.closerange(CHANNEL_FD + 1, 1 << 16)
        work = os.path.join(CONFIG["scratch"], "p%d" % os.getpid())
        os.mkdir(work, 0o700)
        os.chdir(work)
        mem = CONFIG["memory_mb"] << 20
        resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
        resource.setrlimit(resource.RLIMIT_CPU, (CONFIG["cpu_s"], CONFIG["cpu_s"]))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if not install_child_guard([worker_pid]) and CONFIG["require_guard"]:
            os._exit(70)
        sock = socket.socket(fileno=CHANNEL_FD)
        sock.setblocking(True)
        serve(sock)
    except BaseException:
        code = 1
    os._exit(code)


def others():
    """Processes other than this worker (and the namespace's init) that are still alive, or dead
    children of this worker not reaped yet (a child killed just after the last reap: the next
    problem would still see its /proc entry)."""
    me, found = os.getpid(), []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) in (me, 1):
            continue
        try:
            with open("/proc/%s/stat" % name, "rb") as f:
                stat = f.read()
            state, ppid = stat[stat.rindex(b")") + 2:].split()[:2]
            if state in (b"Z", b"X") and int(ppid) != me:
                continue
            if CONFIG["sweep"] == "uid":
                with open("/proc/%s/status" % name) as f:
                    uid = int(next(l for l in f if l.startswith("Uid:")).split()[1])
                if uid != os.getuid():
                    continue
        except (OSError, ValueError, StopIteration):
            continue
        found.append(int(name))
    return found


def reap():
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def sweep(child):
    """Kills the child's group and, where this worker owns a pid namespace or a uid, everything else it left."""
    try:
        os.killpg(child, signal.SIGKILL)
    except OSError:
        pass
    if CONFIG["sweep"] == "group":
        reap()
        return True
    deadline = time.monotonic() + 3
    while True:
        reap()
        alive = others()
        if not alive:
            return True
        if time.monotonic() > deadline:
            return False
        for pid in alive:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.002)


def wipe():
    """Empties the scratch dir (the private /tmp): nothing a problem wrote is there for the next."""
    def chmod_and_retry(fn, path, _):
        try:
            os.chmod(os.path.dirname(path), 0o700)
            os.chmod(path, 0o700)
            fn(path)
        except OSError:
            pass
    root = CONFIG["scratch"]
    for name in os.listdir(root):
        path = os.path.join(root, name)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, onerror=chmod_and_retry)
        else:
            try:
                os.unlink(path)
            except OSError:
                pass
    return os.listdir(root) == []


# Where each System V IPC table lists an object's id and its creator's uid.
SYSV_TABLES = (("shm", 1, 9), ("sem", 1, 6), ("msg", 1, 9))


def drop_sysv_ipc():
    """Removes the System V shared memory segments, semaphore sets and message queues the problem
    created (creator uid: this sandbox's), so the next problem cannot list or attach them and their
    memory goes back now, not when the lane closes. Never in the invoking user's own namespace."""
    if CONFIG["sweep"] == "group":
        return True
    _LIBC.shmctl.argtypes = [_ctypes.c_int, _ctypes.c_int, _ctypes.c_void_p]
    _LIBC.msgctl.argtypes = [_ctypes.c_int, _ctypes.c_int, _ctypes.c_void_p]
    remove = {"shm": lambda i: _LIBC.shmctl(i, 0, None), "sem": lambda i: _LIBC.semctl(i, 0, 0), "msg": lambda i: _LIBC.msgctl(i, 0, None)}
    left = 0
    for table, id_at, cuid_at in SYSV_TABLES:
        try:
            with open("/proc/sysvipc/" + table) as f:
                rows = [line.split() for line in f.read().splitlines()[1:]]
        except OSError:
            continue
        for row in rows:
            try:
                if int(row[cuid_at]) == os.getuid() and remove[table](int(row[id_at])) != 0:
                    left += 1
            except (IndexError, ValueError):
                left += 1
    return left == 0


def recv_with_fds(ctl):
    """One control byte and the fds sent with it (recvmsg rather than socket.recv_fds, which needs Python 3.9)."""
    size = struct.calcsize("i")
    msg, ancdata, _, _ = ctl.recvmsg(1, socket.CMSG_SPACE(4 * size))
    fds = []
    for level, kind, data in ancdata:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds += struct.unpack("%di" % (len(data) // size), data[: len(data) - len(data) % size])
    return msg, fds


def main():
    set_undumpable()
    set_subreaper()
    ctl = socket.socket(fileno=3)
    ctl.setblocking(True)
    ctl.sendall(b"H" + (b"1" if guard_supported() else b"0"))
    child = None
    while True:
        try:
            msg, fds = recv_with_fds(ctl)
        except OSError:
            msg, fds = b"", []
        if msg == b"R" and len(fds) == 1 and child is None:
            child = os.fork()
            if child == 0:
                child_main(fds[0], os.getppid())
            os.close(fds[0])
        elif msg == b"E":
            clean = sweep(child) if child is not None else True
            child = None
            clean = wipe() and clean
            clean = drop_sysv_ipc() and clean
            ctl.sendall(b"C" if clean else b"D")
        else:
            for fd in fds:
                os.close(fd)
            if child is not None:
                sweep(child)
            os._exit(0)


main()
`;

export const WORKER_PY = `${GUARD_PY}\n${CODEC_PY}\n${WORKER_MAIN_PY}`;
