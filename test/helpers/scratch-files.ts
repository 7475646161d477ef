/** A scratch folder of its own for a test file, and a writer of named files in it (returns the path). */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export function scratchFiles(prefix: string): { dir: string; file: (name: string, text: string) => string } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return {
    dir,
    file: (name, text) => {
      const f = path.join(dir, name);
      writeFileSync(f, text);
      return f;
    },
  };
}
