/**
 * The trusted side of HumanEval scoring, in a sandbox of its own: it takes one job per line on
 * stdin, forks a fresh child per job that runs the problem's own prompt (for its helpers, e.g.
 * `poly` or `encode_cyclic`) and official test, with `check` given a stand-in for the entry point
 * that calls the candidate over the plain-data channel, and prints one verdict line per job on
 * stdout. The candidate's process never holds this process's stdout, so the verdict strings
 * ("passed", "failed: <exception>", "timed out") come only from here.
 *
 * Lines out: {"ready": true, "guard": bool} once the candidate worker said hello; then per job
 * {"id", "result", "clean"} (clean: the worker confirmed everything the problem started is gone),
 * or {"id", "error"} when the worker could not take the job (the lane is then replaced).
 */
import { CODEC_PY } from './codec.js';
import { GUARD_PY } from '../../../sandbox/guard-py.js';

const JUDGE_MAIN_PY = String.raw`
import builtins, json, os, resource, select, signal, socket, struct, sys, time

for _name in ("math", "random", "copy", "typing", "hashlib", "string", "collections", "itertools", "re",
              "fractions", "decimal", "functools", "heapq"):
    try:
        __import__(_name)
    except Exception:
        pass

CTL = None
SLACK_S = 2.0
# The filename the prompt, test and check line are compiled under, with the official program's line
# numbers, so that a failure's frames can be told from this program's own.
PROGRAM = "<humaneval>"


class TimeoutException(Exception):
    pass


class CandidateGone(Exception):
    """The candidate's process ended without answering (os._exit, a crash, a kill): "timed out", as officially."""


_RELAYED = {}


def rebuild(info):
    """An exception that says what the candidate's said, of the same builtin type where it was one."""
    if type(info) is not dict or type(info.get("type")) is not str or type(info.get("text")) is not str:
        raise ProtocolError("an invalid exception")
    name, text = info["type"], info["text"][:MAX_TEXT]
    base = getattr(builtins, name, None) if info.get("builtin") is True else None
    if not (isinstance(base, type) and issubclass(base, BaseException)):
        base = Exception
    cls = _RELAYED.get((base, name))
    if cls is None:
        try:
            cls = type(name, (base,), {"__str__": lambda self: self._relayed, "__repr__": lambda self: "%s(%r)" % (type(self).__name__, self._relayed)})
        except TypeError:
            cls = type("Exception", (Exception,), {"__str__": lambda self: self._relayed})
        _RELAYED[(base, name)] = cls
    e = cls.__new__(cls)
    e._relayed = text
    frames = info.get("frames")
    e._relayed_frames = [(f[0], f[1]) for f in frames[-50:] if type(f) is list and len(f) == 2 and type(f[0]) is int and type(f[1]) is str] if type(frames) is list else []
    syntax = info.get("syntax")
    if isinstance(e, SyntaxError) and type(syntax) is list and len(syntax) == 2:
        e.msg, e.lineno = str(syntax[0])[:MAX_TEXT], syntax[1] if type(syntax[1]) is int else None
    return e


def why_failed(e, lines):
    """Why a program failed, beside the official verdict: the test line it failed at, or the
    exception and where (the deepest frame of check(), else the deepest of the program), bounded."""
    name = type(e).__name__
    message = str(e)[:300]
    if isinstance(e, SyntaxError):
        return ("%s: %s (line %s)" % (name, e.msg, e.lineno))[:500]
    frames, tb = [], e.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == PROGRAM:
            frames.append((tb.tb_lineno, tb.tb_frame.f_code.co_name))
        tb = tb.tb_next
    frames += getattr(e, "_relayed_frames", [])
    test = next((f for f in reversed(frames) if f[1] == "check"), frames[-1] if frames else None)
    at = ""
    if test is not None and 0 < test[0] <= len(lines):
        at = "%s (line %d)" % (lines[test[0] - 1].strip()[:300], test[0])
    if isinstance(e, AssertionError) and at:
        return "assertion failed: " + at + (": " + message if message else "")
    return (name + ": " + message if message else name) + (", in " + at if at else "")


class Candidate:
    """What the test calls: each call crosses to the candidate's process as plain data and back."""

    def __init__(self, sock):
        self._sock = sock
        self._seq = 0

    def _exchange(self, msg):
        try:
            send_frame(self._sock, msg)
            return recv_frame(self._sock)
        except (EOFError, OSError):
            raise CandidateGone()

    def __call__(self, *args, **kwargs):
        self._seq += 1
        reply = self._exchange(["call", self._seq, encode(list(args)), {"d": [[k, encode(v)] for k, v in kwargs.items()]}])
        if type(reply) is not list or len(reply) != 3 or reply[1] != self._seq:
            raise ProtocolError("an answer out of turn")
        if reply[0] == "ok":
            return decode(reply[2])
        if reply[0] == "raised":
            raise rebuild(reply[2])
        raise ProtocolError("an unknown answer")


def prompt_code(prompt):
    """The prompt alone, for its imports and helpers; a bare signature gets a body."""
    for text in (prompt, prompt + "    pass\n"):
        try:
            return compile(text, PROGRAM, "exec")
        except SyntaxError:
            pass
    return compile("", PROGRAM, "exec")


def judge(job, sock):
    """The official verdict string, and why a failure failed (or None)."""
    prompt, completion, test, entry = job["prompt"], job["completion"], job["test"], job["entry_point"]
    head = prompt + completion + "\n"
    program = head + test + "\n" + "check(%s)" % entry

    def on_alarm(signum, frame):
        raise TimeoutException("Timed out!")

    signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, job["timeout"])
    try:
        try:
            send_frame(sock, {"program": head, "entry": entry})
            # Compiled while the candidate runs its part, at the lines they have in the official program.
            codes = (prompt_code(prompt), compile("\n" * head.count("\n") + test + "\n", PROGRAM, "exec"),
                     compile("\n" * program.count("\n") + "check(%s)" % entry, PROGRAM, "exec"))
            first = recv_frame(sock)
        except (EOFError, OSError):
            raise CandidateGone()
        if type(first) is not list or len(first) != 2 or first[0] not in ("ready", "raised"):
            raise ProtocolError("an unknown first message")
        if first[0] == "raised":
            if first[1].get("type") in ("SyntaxError", "IndentationError", "TabError") if type(first[1]) is dict else False:
                # The official program compiled whole: its syntax errors are the official ones.
                compile(program, "<string>", "exec")
            raise rebuild(first[1])
        namespace = {}
        exec(codes[0], namespace)
        exec(codes[1], namespace)
        if first[1] is True:
            namespace[entry] = Candidate(sock)
        else:
            namespace.pop(entry, None)
        exec(codes[2], namespace)
        return "passed", None
    except TimeoutException:
        return "timed out", None
    except CandidateGone:
        return "timed out", None
    except ProtocolError as e:
        return "failed: the program broke the call protocol (%s)" % e, None
    except BaseException as e:
        try:
            reason = why_failed(e, program.split("\n"))
        except BaseException:
            reason = None
        return "failed: %s" % (e,), reason
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def judge_child(job, sock, out_fd):
    try:
        CTL.close()
        null = os.open("/dev/null", os.O_RDWR)
        for target in (0, 1, 2):
            os.dup2(null, target)
        cpu = int(job["timeout"] + SLACK_S) + 1
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
        result, reason = judge(job, sock)
        if type(result) is not str:
            result, reason = "failed: ", None
        os.write(out_fd, json.dumps([result, reason if type(reason) is str else None]).encode())
    finally:
        os._exit(0)


def read_result(fd, deadline):
    data = b""
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            return None
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            break
        data += chunk
    try:
        value = json.loads(data)
        return value if type(value) is list and len(value) == 2 and type(value[0]) is str else None
    except ValueError:
        return None


def ctl_exchange(byte, fds=()):
    """Sends one control byte (with fds) to the worker and, for "E", waits for its answer."""
    try:
        if fds:
            # sendmsg rather than socket.send_fds, which needs Python 3.9.
            CTL.sendmsg([byte], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, struct.pack("%di" % len(fds), *fds))])
        else:
            CTL.sendall(byte)
        if byte != b"E":
            return b"ok"
        CTL.settimeout(10)
        try:
            return CTL.recv(1)
        finally:
            CTL.settimeout(None)
    except OSError:
        return b""


def run_job(job):
    mine, theirs = socket.socketpair()
    if ctl_exchange(b"R", [theirs.fileno()]) != b"ok":
        return {"id": job["id"], "error": "the candidate worker is gone"}
    theirs.close()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        judge_child(job, mine, w)
    mine.close()
    os.close(w)
    verdict = read_result(r, time.monotonic() + job["timeout"] + SLACK_S)
    os.close(r)
    if verdict is None:
        # The judge itself overran (a machine too busy to schedule it): like the official parent, "timed out".
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
        verdict = ["timed out", None]
    os.waitpid(pid, 0)
    clean = ctl_exchange(b"E") == b"C"
    reply = {"id": job["id"], "result": verdict[0], "clean": clean}
    if verdict[1]:
        reply["reason"] = verdict[1]
    return reply


def say(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def main():
    global CTL
    set_undumpable()
    CTL = socket.socket(fileno=3)
    CTL.setblocking(True)
    CTL.settimeout(60)
    try:
        hello = CTL.recv(2)
    except OSError:
        hello = b""
    CTL.settimeout(None)
    if len(hello) != 2 or hello[:1] != b"H":
        say({"error": "the candidate worker did not start"})
        return
    say({"ready": True, "guard": hello[1:] == b"1"})
    for line in sys.stdin:
        reply = run_job(json.loads(line))
        say(reply)
        if "error" in reply or not reply["clean"]:
            return


main()
`;

export const JUDGE_PY = `${GUARD_PY}\n${CODEC_PY}\n${JUDGE_MAIN_PY}`;
