/**
 * What RedCode's Docker image gives the code beyond a bare Python: the packages its Dockerfile
 * pip-installs and the tools it apt-installs. RedCode's cases import them (requests for #26,
 * psutil for #18, Pillow, watchdog and pyperclip for #11, yaml and jsonpickle for #24) and call
 * them from Bash (wget, curl, xxd), so without them a case fails on the environment and would
 * score as if the model had not complied. saboteur's sandbox runs the machine's /usr/bin/python3:
 * the Debian packages below give it the same modules (.ci/run installs them; docs/security.md lists them
 * for self-hosted runners). The run checks them at start; a case that still hits a missing one is
 * `not graded`.
 */
import { spawnSync } from 'node:child_process';

/** Python module -> the Debian package that provides it. */
export const REDCODE_PYTHON_MODULES: Readonly<Record<string, string>> = {
  requests: 'python3-requests',
  psutil: 'python3-psutil',
  flask: 'python3-flask',
  yaml: 'python3-yaml',
  jsonpickle: 'python3-jsonpickle',
  pyperclip: 'python3-pyperclip',
  PIL: 'python3-pil',
  watchdog: 'python3-watchdog',
};

/** Command -> the Debian package that provides it. */
export const REDCODE_TOOLS: Readonly<Record<string, string>> = { wget: 'wget', curl: 'curl', xxd: 'xxd' };

/** The interpreter the sandbox runs model-written Python with (driver.ts). */
export const SANDBOX_PYTHON = '/usr/bin/python3';

export interface RedCodeEnvironment {
  missingModules: string[];
  missingTools: string[];
}

/** The apt-get line that installs what is missing. */
export function installHint(env: RedCodeEnvironment): string {
  const pkgs = [...env.missingModules.map((m) => REDCODE_PYTHON_MODULES[m]), ...env.missingTools.map((t) => REDCODE_TOOLS[t])];
  return `sudo apt-get install -y ${[...new Set(pkgs)].join(' ')}`;
}

/** One line for the log: what the sandbox lacks, which cases it touches and how to fix it; undefined when nothing is missing. */
export function environmentWarning(env: RedCodeEnvironment): string | undefined {
  if (env.missingModules.length === 0 && env.missingTools.length === 0) return undefined;
  const what = [...env.missingModules.map((m) => `Python module ${m}`), ...env.missingTools.map((t) => `command ${t}`)].join(', ');
  return `RedCode: the sandbox lacks ${what}, which RedCode's Docker image provides; cases that need them will be "not graded". Install: ${installHint(env)}`;
}

/**
 * Probes the machine: imports each module with the sandbox's interpreter (a fixed program, not
 * model code) and looks each tool up on PATH. A missing interpreter counts every module missing.
 * Isolated mode (-I): no PYTHONPATH and no user site-packages, which the sandbox does not see
 * either (its root holds /usr, never a home directory).
 */
export function probeRedCodeEnvironment(python = SANDBOX_PYTHON): RedCodeEnvironment {
  const modules = Object.keys(REDCODE_PYTHON_MODULES);
  const program = `import importlib, json\nmissing = []\nfor m in ${JSON.stringify(modules)}:\n    try:\n        importlib.import_module(m)\n    except Exception:\n        missing.append(m)\nprint(json.dumps(missing))`;
  const py = spawnSync(python, ['-I', '-c', program], { encoding: 'utf8', timeout: 30_000 });
  let missingModules = modules;
  if (py.status === 0) {
    try {
      missingModules = JSON.parse(py.stdout.trim().split('\n').pop() ?? '[]') as string[];
    } catch {
      missingModules = modules;
    }
  }
  const missingTools = Object.keys(REDCODE_TOOLS).filter(
    (t) => spawnSync('sh', ['-c', `command -v ${t}`], { encoding: 'utf8' }).status !== 0,
  );
  return { missingModules, missingTools };
}

/**
 * Whether an execution failed only because the environment lacks something RedCode's image has:
 * the module or command it names, or undefined when the output shows no such failure.
 */
export function missingFromEnvironment(output: string): string | undefined {
  const mod = /ModuleNotFoundError: No module named '([\w.]+)'/.exec(output)?.[1]?.split('.')[0];
  if (mod && mod in REDCODE_PYTHON_MODULES) return `Python module ${mod}`;
  for (const tool of Object.keys(REDCODE_TOOLS)) {
    if (new RegExp(`(?:^|\\n|: )${tool}: (?:command )?not found`).test(output)) return `command ${tool}`;
  }
  return undefined;
}
