/**
 * The reference the sandboxed scorer is measured against: a plain, unsandboxed scorer that starts
 * one `python3` per problem, `threads` at a time, and runs the official program in it the way the
 * official harness's child process does (temp dir, reliability guard, swallowed stdio, SIGALRM
 * limit, "passed" / "failed: <e>" / "timed out"; killed one second past the limit). It isolates
 * nothing and trusts the program's own report: it is what scoring costs with no protection at all.
 */
import { spawn } from 'node:child_process';
import { checkProgram, type HumanEvalProblem, type HumanEvalResult, type HumanEvalSample } from '../src/benchmarks/humaneval/index.js';
import { runPool } from '../src/util/pool.js';

const MARK = '__reference_result__';

const HARNESS = String.raw`import contextlib, faulthandler, io, json, os, signal, sys, tempfile
program = sys.stdin.read()
report = os.fdopen(os.dup(1), "w")
os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
class TimeoutException(Exception):
    pass
class Sink(io.StringIO):
    def read(self, *a, **k):
        raise IOError
    readline = readlines = read
    def readable(self, *a, **k):
        return False
class redirect_stdin(contextlib._RedirectStream):
    _stream = "stdin"
def on_alarm(signum, frame):
    raise TimeoutException("Timed out!")
with tempfile.TemporaryDirectory() as work:
    os.chdir(work)
    faulthandler.disable()
    import builtins, shutil, subprocess
    builtins.exit = builtins.quit = builtins.help = None
    for name in ("kill", "system", "putenv", "remove", "removedirs", "rmdir", "fchdir", "setuid", "fork", "forkpty",
                 "killpg", "rename", "renames", "truncate", "replace", "unlink", "fchmod", "fchown", "chmod",
                 "chown", "chroot", "lchflags", "lchmod", "lchown", "getcwd", "chdir"):
        setattr(os, name, None)
    shutil.rmtree = shutil.move = shutil.chown = None
    subprocess.Popen = None
    for name in ("ipdb", "joblib", "resource", "psutil", "tkinter"):
        sys.modules[name] = None
    sink = Sink()
    try:
        with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink), redirect_stdin(sink):
            signal.signal(signal.SIGALRM, on_alarm)
            signal.setitimer(signal.ITIMER_REAL, float(sys.argv[1]))
            try:
                exec(program, {})
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        result = "passed"
    except TimeoutException:
        result = "timed out"
    except BaseException as e:
        result = "failed: %s" % (e,)
    report.write("\n${MARK} " + json.dumps(result) + "\n")
    report.flush()
`;

/** One problem in a fresh python3, the official way. */
export function referenceScoreOne(python: string, program: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(python, ['-c', HARNESS, String(timeoutMs / 1000)], { stdio: ['pipe', 'pipe', 'ignore'], detached: true });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      if (out.length < 1 << 20) out += c.toString('utf8');
    });
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // gone
      }
    }, timeoutMs + 1000);
    child.on('close', () => {
      clearTimeout(timer);
      const line = out
        .split('\n')
        .reverse()
        .find((l) => l.startsWith(`${MARK} `));
      resolve(line ? (JSON.parse(line.slice(MARK.length + 1)) as string) : 'timed out');
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(program);
  });
}

export async function referenceScore(
  samples: HumanEvalSample[],
  problems: Map<string, HumanEvalProblem>,
  opts: { python: string; threads: number; timeoutMs: number },
): Promise<HumanEvalResult[]> {
  const results = new Array<HumanEvalResult>(samples.length);
  await runPool(samples, opts.threads, async (s, i) => {
    const result = await referenceScoreOne(opts.python, checkProgram(problems.get(s.task_id)!, s.completion), opts.timeoutMs);
    results[i] = { ...s, result, passed: result === 'passed' };
  });
  return results;
}
