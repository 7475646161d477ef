/**
 * The filesystem a bwrap sandbox sees. bwrap starts from an empty root; only what the program needs
 * is bound in, read-only, at the same path:
 *   'python': the interpreter, the directories on its sys.path (standard library, site-packages)
 *             and the directories of the shared libraries it loads, with the symlinks on the way to
 *             them (/lib64 -> usr/lib64, ...);
 *   'system': all of /usr, the top-level links or directories into it (/bin, /lib, ...), a short
 *             list of /etc entries that shell tools read, /sys (kernel facts RedCode's cases read,
 *             no user data) and the standard top-level directories, empty (/boot, /mnt, ...);
 *             runSandboxed adds an /etc/hosts of its own (localhost only).
 * Never /home, /root, /var, /opt, /srv, /mnt, /run, the checkout or the runner's workspace, unless
 * the interpreter itself lives there (then only its own directories).
 */
import { execFile } from 'node:child_process';
import { existsSync, lstatSync, openSync, readSync, closeSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { RootPlan } from './types.js';

/** Imports every extension module of the standard library (so their libraries are mapped), then reports. */
const PROBE_PY = String.raw`import glob, importlib, json, os, sys, sysconfig
skip = ("_tkinter", "_test", "xxlimited", "_ctypes_test", "_xxtest", "xxsubtype", "_curses")
dynload = os.path.join(sysconfig.get_paths()["platstdlib"], "lib-dynload")
for path in glob.glob(os.path.join(dynload, "*.so")):
    name = os.path.basename(path).split(".")[0]
    if not name.startswith(skip):
        try:
            importlib.import_module(name)
        except Exception:
            pass
libs = set()
with open("/proc/self/maps") as f:
    for line in f:
        parts = line.split()
        if len(parts) >= 6 and parts[5].startswith("/") and ".so" in parts[5]:
            libs.add(parts[5])
print(json.dumps({"executable": os.path.realpath(sys.executable),
                  "path": [p for p in sys.path if p and os.path.isdir(p)], "libs": sorted(libs)}))
`;

/** /etc entries shell tools need; nothing that names the host's users, network or secrets. */
const SYSTEM_ETC = [
  '/etc/alternatives',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/localtime',
  '/etc/nsswitch.conf',
  '/etc/protocols',
  '/etc/services',
  '/etc/mime.types',
  '/etc/os-release',
  '/etc/debian_version',
  '/etc/bash.bashrc',
  '/etc/profile',
  '/etc/pam.d',
  '/etc/init.d',
  '/etc/ssl',
  '/etc/ca-certificates',
];

/** Top-level directories a system has, shown empty (what the host keeps in them stays out). */
const EMPTY_TOP_LEVEL = ['/boot', '/home', '/media', '/mnt', '/opt', '/run', '/srv', '/var'];

/** Top-level entries that are links into /usr on merged-/usr systems (directories elsewhere). */
const TOP_LEVEL = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/**
 * Follows `path` component by component and returns its real path; every symlink met on the way
 * is recorded in `links` (path -> target), so the sandbox can recreate the same chain.
 */
export function followLinks(path: string, links: Map<string, string>): string {
  let rest = path.split('/').filter(Boolean);
  let cur = '';
  for (let hops = 0; rest.length > 0;) {
    const part = rest.shift()!;
    if (part === '.') continue;
    if (part === '..') {
      cur = dirname(cur || '/') === '/' ? '' : dirname(cur);
      continue;
    }
    const next = `${cur}/${part}`;
    if (!lstatSync(next).isSymbolicLink()) {
      cur = next;
      continue;
    }
    if (++hops > 40) throw new Error(`sandbox root: too many symlinks resolving ${path}`);
    const target = readlinkSync(next);
    links.set(next, target);
    rest = [...(target.startsWith('/') ? target : `${cur}/${target}`).split('/').filter(Boolean), ...rest];
    cur = '';
  }
  return cur || '/';
}

/** PT_INTERP of an ELF executable (the dynamic loader it names), or undefined for static or non-ELF files. */
export function elfInterpreter(file: string): string | undefined {
  const fd = openSync(file, 'r');
  try {
    const read = (pos: number, len: number): Buffer => {
      const b = Buffer.alloc(len);
      readSync(fd, b, 0, len, pos);
      return b;
    };
    const ident = read(0, 64);
    if (ident.readUInt32BE(0) !== 0x7f454c46) return undefined;
    const is64 = ident[4] === 2;
    const le = ident[5] === 1;
    const u16 = (b: Buffer, o: number) => (le ? b.readUInt16LE(o) : b.readUInt16BE(o));
    const u32 = (b: Buffer, o: number) => (le ? b.readUInt32LE(o) : b.readUInt32BE(o));
    const word = (b: Buffer, o: number) => (is64 ? Number(le ? b.readBigUInt64LE(o) : b.readBigUInt64BE(o)) : u32(b, o));
    const phoff = word(ident, is64 ? 0x20 : 0x1c);
    const phentsize = u16(ident, is64 ? 0x36 : 0x2a);
    const phnum = u16(ident, is64 ? 0x38 : 0x2c);
    for (let i = 0; i < Math.min(phnum, 64); i++) {
      const ph = read(phoff + i * phentsize, phentsize);
      if (u32(ph, 0) !== 3) continue; // PT_INTERP
      const offset = word(ph, is64 ? 8 : 4);
      const size = word(ph, is64 ? 32 : 16);
      return read(offset, Math.min(size, 4096)).toString('latin1').replace(/\0.*$/s, '');
    }
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Drops binds inside other binds and links that a bind already provides; sorts for a stable command line. */
export function normalizeRoot(binds: Iterable<string>, links: Map<string, string>): RootPlan {
  const inside = (p: string, dir: string) => p === dir || p.startsWith(dir === '/' ? '/' : `${dir}/`);
  const sorted = [...new Set(binds)].sort((a, b) => a.length - b.length || a.localeCompare(b));
  const kept: string[] = [];
  for (const b of sorted) if (!kept.some((k) => inside(b, k))) kept.push(b);
  const symlinks = [...links].filter(([p]) => !kept.some((k) => inside(p, k))).sort(([a], [b]) => a.localeCompare(b));
  return { binds: kept.sort(), symlinks };
}

function runProbe(python: string): Promise<{ executable: string; path: string[]; libs: string[] }> {
  return new Promise((resolve, reject) => {
    execFile(
      python,
      ['-I', '-c', PROBE_PY],
      { timeout: 60_000, maxBuffer: 4 * 1024 * 1024, env: { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8' } },
      (err, stdout, stderr) => {
        if (err)
          return reject(
            new Error(`sandbox root: ${python} could not report its paths: ${(stderr || err.message).trim().split('\n').pop()}`),
          );
        try {
          resolve(JSON.parse(stdout.trim().split('\n').pop()!));
        } catch {
          reject(new Error(`sandbox root: ${python} printed no path report`));
        }
      },
    );
  });
}

/** The Python root: what `python` needs to start and import its standard library and site-packages. */
export async function pythonRoot(python: string): Promise<RootPlan> {
  const info = await runProbe(python);
  const links = new Map<string, string>();
  const binds: string[] = [];
  const exe = followLinks(python, links);
  binds.push(exe);
  const interp = elfInterpreter(exe);
  if (interp) binds.push(followLinks(interp, links));
  for (const dir of info.path) binds.push(realpathSync(dir));
  for (const lib of info.libs) if (existsSync(lib)) binds.push(dirname(realpathSync(lib)));
  if (existsSync('/etc/ld.so.cache')) binds.push('/etc/ld.so.cache');
  // The top-level links (/lib -> usr/lib ...) are what the loader's default paths go through.
  for (const top of TOP_LEVEL) if (existsSync(top) && lstatSync(top).isSymbolicLink()) links.set(top, readlinkSync(top));
  return normalizeRoot(binds, links);
}

/** The system root for shell tools: /usr, the top-level entries into it, and SYSTEM_ETC. */
export function systemRoot(): RootPlan {
  const links = new Map<string, string>();
  const binds = ['/usr'];
  for (const top of TOP_LEVEL) {
    if (!existsSync(top)) continue;
    if (lstatSync(top).isSymbolicLink()) links.set(top, readlinkSync(top));
    else if (statSync(top).isDirectory()) binds.push(top);
  }
  for (const entry of SYSTEM_ETC) if (existsSync(entry)) binds.push(entry);
  if (existsSync('/sys/kernel')) binds.push('/sys');
  return { ...normalizeRoot(binds, links), dirs: EMPTY_TOP_LEVEL };
}

const cache = new Map<string, Promise<RootPlan>>();

/** pythonRoot, computed once per interpreter and process. */
export function cachedPythonRoot(python: string): Promise<RootPlan> {
  let plan = cache.get(python);
  if (!plan) {
    plan = pythonRoot(python);
    cache.set(python, plan);
    plan.catch(() => cache.delete(python));
  }
  return plan;
}
