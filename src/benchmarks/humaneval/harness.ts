/**
 * The Python side of HumanEval scoring, run inside the sandbox. It does what the official
 * harness's `check_correctness` does in its child process (openai/human-eval, execution.py):
 * disable destructive functions, swallow stdio, exec the program under a SIGALRM time limit, and
 * report "passed", "timed out" or "failed: <str(exception)>". Kept as a string so the bundle
 * carries it.
 */
import type { HumanEvalProblem } from './types.js';

/** Printed before the untrusted code runs: its presence proves the sandbox started the program. */
export const STARTED_MARK = '__saboteur_humaneval_started__';
/** Prefix of the line carrying the JSON-encoded result string. */
export const RESULT_MARK = '__saboteur_humaneval_result__';
/** Prefix of the line carrying why a failed program failed (the test line, or the exception), JSON-encoded. */
export const DETAIL_MARK = '__saboteur_humaneval_detail__';

export const HARNESS_FILE = 'harness.py';
export const PROGRAM_FILE = 'program.py';

/** The program the official harness executes for one completion. */
export function checkProgram(problem: HumanEvalProblem, completion: string): string {
  return problem.prompt + completion + '\n' + problem.test + '\n' + `check(${problem.entry_point})`;
}

export const HARNESS_PY = String.raw`import contextlib, faulthandler, io, json, os, platform, signal, sys, traceback

# The real stdout is kept for the harness's own report; the program's raw writes to fd 1 go to
# /dev/null, so they can neither push the report past the output cap nor break its line.
_report = os.fdopen(os.dup(1), "w")
_report.write("${STARTED_MARK}\n")
_report.flush()
os.dup2(os.open(os.devnull, os.O_WRONLY), 1)


class TimeoutException(Exception):
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


@contextlib.contextmanager
def time_limit(seconds):
    def handler(signum, frame):
        raise TimeoutException("Timed out!")

    signal.setitimer(signal.ITIMER_REAL, seconds)
    signal.signal(signal.SIGALRM, handler)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


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


def why_failed(e, program):
    # The official verdict is "failed: str(e)", empty for a bare assert: say which test line failed
    # (the deepest frame in check(), else in the program) and the exception, bounded.
    lines = program.split("\n")
    name = type(e).__name__
    message = str(e)[:300]
    if isinstance(e, SyntaxError):
        return f"{name}: {e.msg} (line {e.lineno})"[:500]
    frames = [f for f in traceback.extract_tb(e.__traceback__) if f.filename == "<string>"]
    test = next((f for f in reversed(frames) if f.name == "check"), frames[-1] if frames else None)
    at = ""
    if test is not None and test.lineno and 0 < test.lineno <= len(lines):
        at = f"{lines[test.lineno - 1].strip()[:300]} (line {test.lineno})"
    if isinstance(e, AssertionError) and at:
        return f"assertion failed: {at}" + (f": {message}" if message else "")
    return (f"{name}: {message}" if message else name) + (f", in {at}" if at else "")


def main():
    timeout = float(sys.argv[1])
    with open("${PROGRAM_FILE}") as f:
        program = f.read()
    reliability_guard()
    failure = None
    try:
        exec_globals = {}
        with swallow_io():
            with time_limit(timeout):
                exec(program, exec_globals)
        result = "passed"
    except TimeoutException:
        result = "timed out"
    except BaseException as e:
        result = f"failed: {e}"
        failure = e
    _report.write("\n${RESULT_MARK} " + json.dumps(result) + "\n")
    _report.flush()
    if failure is not None:
        try:
            _report.write("${DETAIL_MARK} " + json.dumps(why_failed(failure, program)) + "\n")
            _report.flush()
        except BaseException:
            pass


main()
`;

export interface HarnessOutcome {
  /** False when the sandbox never started the harness (an infrastructure failure). */
  started: boolean;
  /** The result string, or undefined when the program died before reporting one. */
  result?: string;
  /** Why a failed program failed: the failing test line, or the exception and its message. */
  detail?: string;
}

/** Reads the harness's marker lines from the sandbox's stdout. */
export function parseHarnessOutput(stdout: string): HarnessOutcome {
  const lines = stdout.split('\n');
  const started = lines.includes(STARTED_MARK);
  const marked = (mark: string): string | undefined => {
    // The last marked line wins; the harness prints at most one of each, after the program finished.
    for (let i = lines.length - 1; i >= 0; i--) {
      if (!lines[i].startsWith(mark + ' ')) continue;
      try {
        const value: unknown = JSON.parse(lines[i].slice(mark.length + 1));
        if (typeof value === 'string') return value;
      } catch {
        // A garbled line (e.g. cut by the output cap) counts as none.
      }
    }
    return undefined;
  };
  const result = marked(RESULT_MARK);
  if (result === undefined) return { started };
  const detail = result.startsWith('failed') ? marked(DETAIL_MARK) : undefined;
  return { started, result, ...(detail ? { detail } : {}) };
}
