// Cuts a release: bumps the version, moves the CHANGELOG's Unreleased notes under the new version,
// rebuilds dist/, commits, tags vX.Y.Z and moves the major tag vX (what `uses: owner/saboteur@vX`
// resolves to). See the README's "Releasing" section.
//
//   node scripts/release.mjs patch|minor|major|X.Y.Z [--push REMOTE] [--allow-branch]
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** The version after `current` for a bump kind, or an explicit X.Y.Z that must be greater. */
export function nextVersion(current, bump) {
  const parse = (v) => {
    const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(v);
    if (!m) throw new Error(`not a version X.Y.Z: ${JSON.stringify(v)}`);
    return m.slice(1).map(Number);
  };
  const [ma, mi, pa] = parse(current);
  if (bump === 'major') return `${ma + 1}.0.0`;
  if (bump === 'minor') return `${ma}.${mi + 1}.0`;
  if (bump === 'patch') return `${ma}.${mi}.${pa + 1}`;
  const next = parse(bump);
  const cmp = next.map((n, i) => n - [ma, mi, pa][i]).find((d) => d !== 0) ?? 0;
  if (cmp <= 0) throw new Error(`${bump} is not above the current version ${current}`);
  return bump;
}

/** Moves the notes under "## Unreleased" to a new "## [version] - date" section; refuses empty notes. */
export function releaseChangelog(text, version, date) {
  const m = /^## Unreleased[ \t]*\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(text);
  if (!m) throw new Error('CHANGELOG.md has no "## Unreleased" section');
  if (!m[1].trim()) throw new Error('CHANGELOG.md: the Unreleased section is empty; say what this release changes');
  const released = `## Unreleased\n\n## [${version}] - ${date}\n${m[1].replace(/\s*$/, '\n\n')}`;
  return text.slice(0, m.index) + released + text.slice(m.index + m[0].length);
}

/** Where the version saboteur reports is written. */
const VERSION_FILE = 'src/run/assemble.ts';

/** Writes the new version into CHANGELOG.md, package.json, package-lock.json and VERSION_FILE. */
function writeRelease(pkg, version) {
  writeFileSync('CHANGELOG.md', releaseChangelog(readFileSync('CHANGELOG.md', 'utf8'), version, new Date().toISOString().slice(0, 10)));
  writeFileSync('package.json', `${JSON.stringify({ ...pkg, version }, null, 2)}\n`);
  const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
  lock.version = version;
  if (lock.packages?.['']) lock.packages[''].version = version;
  writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
  // The version saboteur reports (--version, the run log's tool.version) is a constant in the bundle.
  const source = readFileSync(VERSION_FILE, 'utf8');
  const bumped = source.replace(/export const VERSION = '[^']*';/, `export const VERSION = '${version}';`);
  if (bumped === source && !source.includes(`export const VERSION = '${version}';`))
    throw new Error(`${VERSION_FILE} has no "export const VERSION = '…';" line`);
  writeFileSync(VERSION_FILE, bumped);
}

function main(argv) {
  const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).trim();
  const bump = argv[0];
  if (!bump) throw new Error('usage: node scripts/release.mjs patch|minor|major|X.Y.Z [--push REMOTE] [--allow-branch]');
  const pushAt = argv.indexOf('--push');
  const remote = pushAt >= 0 ? argv[pushAt + 1] : undefined;
  if (pushAt >= 0 && !remote) throw new Error('--push needs a remote name');
  if (git('status', '--porcelain')) throw new Error('the working tree has uncommitted changes: commit or stash them first');
  const branch = git('rev-parse', '--abbrev-ref', 'HEAD');
  if (branch !== 'main' && !argv.includes('--allow-branch'))
    throw new Error(`releases are cut from main (this is ${branch}); pass --allow-branch to release from it anyway`);

  const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
  const version = nextVersion(pkg.version, bump);
  const tag = `v${version}`;
  const major = `v${version.split('.')[0]}`;
  if (git('tag', '--list', tag)) throw new Error(`the tag ${tag} exists already`);

  try {
    writeRelease(pkg, version);
    console.log(`building dist/ for ${tag}`);
    execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
  } catch (err) {
    // Leave the tree as it was: a half-made release is worse than none.
    git('checkout', 'HEAD', '--', 'package.json', 'package-lock.json', 'CHANGELOG.md', VERSION_FILE, 'dist');
    git('clean', '-fdq', '--', 'dist');
    throw err;
  }
  git('add', '--all', 'package.json', 'package-lock.json', 'CHANGELOG.md', VERSION_FILE, 'dist');
  git('commit', '--quiet', '-m', `Release ${tag}`);
  git('tag', '-a', tag, '-m', `saboteur ${tag}`);
  git('tag', '-f', '-a', major, '-m', `saboteur ${major} (at ${tag})`);
  console.log(`tagged ${tag}; ${major} now points at it`);
  if (remote) {
    git('push', remote, 'HEAD', tag);
    git('push', '--force', remote, `refs/tags/${major}`);
    console.log(`pushed ${tag} and moved ${major} on ${remote}`);
  } else {
    console.log(`to publish: git push origin HEAD ${tag} && git push --force origin refs/tags/${major}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    main(process.argv.slice(2));
  } catch (err) {
    console.error(`release: ${err.message}`);
    process.exit(2);
  }
}
