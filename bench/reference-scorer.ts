/**
 * The reference the sandboxed scorer is measured against: a plain, unsandboxed scorer that starts
 * one `python3` per problem, `threads` at a time, and runs the official program in it the way the
 * official harness's child process does (temp dir, reliability guard, swallowed stdio, SIGALRM
 * limit, "passed" / "failed: <e>" / "timed out"; killed one second past the limit). It isolates
 * nothing and trusts the program's own report: it is what scoring costs with no protection at all.
 *
 * `referenceScoreForked` runs the same program, the same way, in a child forked per problem from a
 * python3 started once per thread (as the official harness forks its multiprocessing child): the
 * same verdicts without a python3 start per problem, for the tests that compare verdicts, not cost.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
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

/** The verdict in what the harness wrote: its last report line; none (it died or was killed) is "timed out". */
function verdictOf(out: string): string {
  const line = out
    .split('\n')
    .reverse()
    .find((l) => l.startsWith(`${MARK} `));
  return line ? (JSON.parse(line.slice(MARK.length + 1)) as string) : 'timed out';
}

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
      resolve(verdictOf(out));
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

/**
 * The forking parent: reads one job a line ({program, timeout}), forks a child that runs HARNESS
 * exactly as `python3 -c HARNESS <timeout>` would (the program on its stdin, its stdout to the
 * parent, stderr swallowed, a session of its own), kills the child's session one second past the
 * limit as referenceScoreOne does, and answers with what the child wrote ({out}), a line per job.
 * The parent imports only what HARNESS itself imports (and select, time): the child starts as a
 * fresh interpreter would, its random generator reseeded by Python at the fork.
 */
const FORK_PARENT = String.raw`import contextlib, faulthandler, io, json, os, select, signal, sys, tempfile, time
import builtins, shutil, subprocess
harness = compile(sys.argv[1], "<string>", "exec")
jobs = sys.stdin.buffer
answers = sys.stdout
while True:
    line = jobs.readline()
    if not line:
        break
    job = json.loads(line)
    program = job["program"].encode("utf-8")
    program_r, program_w = os.pipe()
    report_r, report_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.setsid()
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(program_r, 0)
            os.dup2(report_w, 1)
            os.dup2(devnull, 2)
            for fd in (program_r, program_w, report_r, report_w, devnull):
                os.close(fd)
            sys.stdin = open(0, "r", closefd=False)
            sys.stdout = open(1, "w", closefd=False)
            sys.stderr = open(2, "w", closefd=False)
            sys.argv = ["-c", job["timeout"]]
            exec(harness, {"__name__": "__main__", "__builtins__": builtins})
        finally:
            os._exit(0)
    os.close(program_r)
    os.close(report_w)
    deadline = time.monotonic() + float(job["timeout"]) + 1.0
    try:
        view = memoryview(program)
        while view:
            view = view[os.write(program_w, view):]
    except OSError:
        pass
    os.close(program_w)
    out = bytearray()
    while True:
        left = deadline - time.monotonic()
        ready = select.select([report_r], [], [], max(left, 0))[0] if left > 0 else []
        if not ready:
            break
        chunk = os.read(report_r, 65536)
        if not chunk:
            break
        if len(out) < 1 << 20:
            out += chunk
    os.close(report_r)
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass
    os.waitpid(pid, 0)
    answers.write(json.dumps({"out": out.decode("utf-8", "replace")}) + "\n")
    answers.flush()
`;

/** A forking parent: one job at a time. */
class ForkParent {
  private readonly child: ChildProcess;
  private readonly answers: AsyncIterator<string>;
  constructor(python: string) {
    this.child = spawn(python, ['-c', FORK_PARENT, HARNESS], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.answers = createInterface({ input: this.child.stdout! })[Symbol.asyncIterator]();
  }
  async score(program: string, timeoutMs: number): Promise<string> {
    // The program as UTF-8 the way referenceScoreOne writes it to a python3's stdin (a lone surrogate becomes U+FFFD).
    const text = Buffer.from(program, 'utf8').toString('utf8');
    this.child.stdin!.write(`${JSON.stringify({ program: text, timeout: String(timeoutMs / 1000) })}\n`);
    const answer = await this.answers.next();
    if (answer.done) throw new Error(`the reference scorer's python3 exited (code ${this.child.exitCode})`);
    return verdictOf((JSON.parse(answer.value) as { out: string }).out);
  }
  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.child.exitCode !== null || this.child.signalCode !== null) return resolve();
      this.child.once('exit', () => resolve());
      this.child.stdin!.end();
    });
  }
}

/** referenceScore's verdicts, each problem in a child forked from one python3 per thread. */
export async function referenceScoreForked(
  samples: HumanEvalSample[],
  problems: Map<string, HumanEvalProblem>,
  opts: { python: string; threads: number; timeoutMs: number },
): Promise<HumanEvalResult[]> {
  const results = new Array<HumanEvalResult>(samples.length);
  const parents = Array.from({ length: Math.max(1, Math.min(opts.threads, samples.length)) }, () => new ForkParent(opts.python));
  const idle = [...parents];
  try {
    await runPool(samples, parents.length, async (s, i) => {
      const parent = idle.pop()!;
      try {
        const result = await parent.score(checkProgram(problems.get(s.task_id)!, s.completion), opts.timeoutMs);
        results[i] = { ...s, result, passed: result === 'passed' };
      } finally {
        idle.push(parent);
      }
    });
  } finally {
    await Promise.all(parents.map((p) => p.close()));
  }
  return results;
}
