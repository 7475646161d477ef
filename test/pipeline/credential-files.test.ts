import { describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findCredentialFiles } from '../../src/pipeline/credential-files.js';

function tree(files: string[]): string {
  const root = mkdtempSync(path.join(tmpdir(), 'creds-'));
  for (const f of files) {
    mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    if (!f.endsWith('/')) writeFileSync(path.join(root, f), 'x');
  }
  return root;
}

describe('credential files in a shown folder', () => {
  it('finds them by name at any depth, the credential folders, and every checkout', () => {
    const root = tree([
      '.npmrc',
      'src/app.ts',
      'deploy/k8s/.kube/config',
      'a/b/c/d/e/.pypirc',
      '.config/gcloud/application_default_credentials.json',
      '.config/app/settings.json',
      'vendor/lib/.git/config',
      'sub/.git',
      'node_modules/pkg/.npmrc',
      '.ssh/id_ed25519',
    ]);
    symlinkSync('/etc/hostname', path.join(root, 'src/.netrc'));
    symlinkSync('/etc', path.join(root, 'src/linked'));
    const found = findCredentialFiles([root]);
    const rel = (ps: string[]) => ps.map((p) => path.relative(root, p)).sort();
    // A link named like a credential file is blanked; a linked folder is not walked.
    expect(rel(found.files)).toEqual(['.npmrc', 'a/b/c/d/e/.pypirc', 'src/.netrc']);
    expect(rel(found.dirs)).toEqual(['.config/gcloud', '.ssh', 'deploy/k8s/.kube']);
    expect(rel(found.repos)).toEqual(['sub', 'vendor/lib']);
    expect(found.cut).toBeUndefined();
  });

  it('stops at its bounds and says where', () => {
    const root = tree(['a/1', 'a/2', 'a/3', 'a/4', 'deep/1/2/3/.npmrc']);
    expect(findCredentialFiles([root], { entries: 3, depth: 16 }).cut).toBe(root);
    expect(findCredentialFiles([root], { entries: 100, depth: 3 }).files).toEqual([]);
  });
});
