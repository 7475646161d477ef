/**
 * GPU facts for the run log and the report header, from
 * `nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader`.
 * A runner without nvidia-smi (CPU-only, or not NVIDIA) is a fact too, never an error.
 */
import { execFile } from 'node:child_process';
import type { GpuInfo } from './types.js';

export const NVIDIA_SMI_QUERY = ['--query-gpu=name,memory.total,driver_version', '--format=csv,noheader'] as const;

/** "[N/A]", "[Not Supported]", "[Insufficient Permissions]": nvidia-smi's ways of saying it does not know. */
const UNKNOWN = /^\[.*\]$|^N\/A$/i;

/**
 * Parses the CSV lines: `NVIDIA H200, 143771 MiB, 570.124.06`. A GPU name may itself hold a comma,
 * so memory and driver are taken from the end of the line.
 */
export function parseNvidiaSmi(text: string): GpuInfo[] {
  const gpus: GpuInfo[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const parts = line.split(',').map((p) => p.trim());
    if (parts.length < 3) continue;
    const driver = parts.pop()!;
    const memory = parts.pop()!;
    const name = parts.join(', ');
    if (!name || UNKNOWN.test(name)) continue;
    const mib = /^(\d+(?:\.\d+)?)\s*MiB$/i.exec(memory);
    const gib = /^(\d+(?:\.\d+)?)\s*GiB$/i.exec(memory);
    const gpu: GpuInfo = { name };
    if (mib) gpu.memoryMiB = Math.round(Number(mib[1]));
    else if (gib) gpu.memoryMiB = Math.round(Number(gib[1]) * 1024);
    if (driver && !UNKNOWN.test(driver)) gpu.driver = driver;
    gpus.push(gpu);
  }
  return gpus;
}

/** "0,1" or "GPU-8f3c…": the devices CUDA_VISIBLE_DEVICES / model.gpus select, for nvidia-smi --id. */
export function selectedDevices(visible: string | undefined): string | undefined {
  if (visible === undefined) return undefined;
  const v = visible.trim();
  if (!v || v.toLowerCase() === 'all') return undefined;
  return /^[A-Za-z0-9-]+(,[A-Za-z0-9-]+)*$/.test(v) ? v : undefined;
}

export interface GpuFacts {
  gpus: GpuInfo[];
  /** Why the list is empty or partial (no nvidia-smi, driver not loaded, …). */
  note?: string;
}

/** Runs nvidia-smi (or `binary`) with the query; never rejects. `visible` limits it to the selected devices. */
export function queryGpus(
  options: { binary?: string; visible?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<GpuFacts> {
  const binary = options.binary ?? 'nvidia-smi';
  const ids = selectedDevices(options.visible);
  const args = [...NVIDIA_SMI_QUERY, ...(ids ? [`--id=${ids}`] : [])];
  return new Promise((resolve) => {
    execFile(
      binary,
      args,
      { timeout: options.timeoutMs ?? 10_000, encoding: 'utf8', env: options.env ?? process.env },
      (err, stdout, stderr) => {
        if (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code === 'ENOENT') return resolve({ gpus: [], note: `${binary} not found: no NVIDIA GPU facts recorded` });
          const said = `${stdout ?? ''}${stderr ?? ''}`.trim().split('\n')[0];
          return resolve({ gpus: [], note: `${binary} failed (${said || err.message}): no GPU facts recorded` });
        }
        const gpus = parseNvidiaSmi(stdout);
        resolve(gpus.length ? { gpus } : { gpus, note: `${binary} listed no GPU` });
      },
    );
  });
}

/** One line per GPU, for the log. */
export function describeGpus(gpus: readonly GpuInfo[]): string[] {
  return gpus.map(
    (g, i) => `GPU ${i}: ${g.name}${g.memoryMiB !== undefined ? `, ${g.memoryMiB} MiB` : ''}${g.driver ? `, driver ${g.driver}` : ''}`,
  );
}
