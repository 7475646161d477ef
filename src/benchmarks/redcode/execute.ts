/**
 * Runs RedCode code in the sandbox: one runSandboxed call per request, in which the driver builds
 * the fake machine, replays the earlier calls of the same run (so state carries over between
 * calls, as in upstream's container), runs the new code and reports the state checks.
 * Only the bwrap isolation can shadow /etc, /root and /usr with fakes; under a weaker sandbox the
 * code is not run at all (running `rm /etc/passwd` with only rlimits around it is not an option).
 * The outer sandbox sees /usr and a few /etc entries (the 'system' root), never the host's /home,
 * /root, /var, /opt or the checkout; the nested one adds the fakes on top.
 */
import { randomBytes } from 'node:crypto';
import { detectIsolation, openLowPorts, runSandboxed, SANDBOX_DEFAULTS, type Isolation } from '../../sandbox/index.js';
import { DRIVER_FILE, DRIVER_PY, PLAN_FILE, type DriverCheck, type DriverPlan, type DriverReport, type DriverRun } from './driver.js';
import { RECEIVER_PORT, SEED_DIRS, SHELL_LISTENER_PORT, seedFiles } from './environment.js';
import { STANDIN_HOST, STANDIN_PROXY_PORT, STANDIN_RULE, standinEnv, standinFiles } from './standin.js';
import { STANDIN_CA_PEM, STANDIN_CERT_PEM, STANDIN_KEY_PEM } from './standin-tls.js';

/** Per-run limit: upstream's cases finish in seconds; a loop or a hanging socket is cut here. */
export const REDCODE_RUN_TIMEOUT_SEC = 15;
/** Time for building the fake tree and starting the nested sandbox, on top of the runs. */
const OVERHEAD_MS = 20_000;

export class RedCodeSandboxError extends Error {}

export interface RedCodeExecOptions {
  runs: DriverRun[];
  report: 'last' | 'all';
  checks: DriverCheck[];
  /** Stand-in daemons started before the runs (scenario #18 kills one). */
  processes?: string[];
  isolation?: Isolation;
}

export function redcodeUnavailableReason(isolation: Isolation): string | undefined {
  if (isolation.kind === 'bwrap') return undefined;
  return `RedCode code execution needs the bubblewrap sandbox, which shadows /etc, /root and /usr with fakes; this machine only offers "${isolation.kind}" (${isolation.note})`;
}

/** Parses the driver's nonce-tagged line (the last one wins: code could print a fake one earlier). */
export function parseDriverOutput(stdout: string, nonce: string): DriverReport | undefined {
  const lines = stdout.split('\n').filter((l) => l.startsWith(`${nonce} `));
  const last = lines.at(-1);
  if (!last) return undefined;
  try {
    return JSON.parse(last.slice(nonce.length + 1)) as DriverReport;
  } catch {
    return undefined;
  }
}

export async function executeRedCode(opts: RedCodeExecOptions): Promise<DriverReport> {
  const isolation = opts.isolation ?? (await detectIsolation());
  const unavailable = redcodeUnavailableReason(isolation);
  if (unavailable) throw new RedCodeSandboxError(unavailable);
  const nonce = randomBytes(12).toString('hex');
  const plan: DriverPlan = {
    nonce,
    // The case's fakes, plus what makes the stand-in web host resolve and be trusted in the sandbox.
    seed: { ...seedFiles(), ...standinFiles(STANDIN_CA_PEM) },
    dirs: [...SEED_DIRS],
    processes: opts.processes ?? [],
    receiverPort: RECEIVER_PORT,
    shellPort: SHELL_LISTENER_PORT,
    runs: opts.runs,
    report: opts.report,
    checks: opts.checks,
    standin: { host: STANDIN_HOST, proxyPort: STANDIN_PROXY_PORT, ...STANDIN_RULE, certPem: STANDIN_CERT_PEM, keyPem: STANDIN_KEY_PEM },
    env: standinEnv(),
    nested: {
      disableUserns: isolation.disableUserns === true,
      tmpfsBytes: isolation.tmpfsSizeCap === false ? null : SANDBOX_DEFAULTS.tmpfsMb * 1024 * 1024,
    },
  };
  const timeoutMs = opts.runs.reduce((t, r) => t + r.timeoutSec * 1000, 0) + OVERHEAD_MS;
  const run = await runSandboxed({
    files: { [DRIVER_FILE]: DRIVER_PY, [PLAN_FILE]: JSON.stringify(plan) },
    argv: [isolation.python, DRIVER_FILE, PLAN_FILE],
    timeoutMs,
    memoryMb: 1024,
    // Threads count against RLIMIT_NPROC: the receiver, the nested bwrap and the code's own processes.
    maxProcesses: 96,
    isolation,
    // Shell tools need all of /usr; the driver starts the nested bwrap, so it may make a user
    // namespace (the code it runs may not: --disable-userns there).
    root: 'system',
    allowNestedUserns: true,
    // The stand-in host answers on ports 80 and 443 too where the sandbox's network namespace can
    // be opened to them from outside; where it cannot, the proxy settings alone reach it.
    beforeStart: async (sandbox) => {
      await openLowPorts(sandbox);
    },
  });
  const report = parseDriverOutput(run.stdout, nonce);
  if (!report) {
    const why =
      run.sandboxError ??
      (run.timedOut
        ? `timed out after ${timeoutMs} ms`
        : run.stderr.trim().split('\n').slice(-3).join(' | ') || `exit ${run.exitCode ?? run.signal}`);
    throw new RedCodeSandboxError(`RedCode sandbox run produced no report: ${why}`);
  }
  if (report.error) throw new RedCodeSandboxError(`RedCode sandbox driver failed: ${report.error}`);
  return report;
}
