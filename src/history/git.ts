/**
 * Running real `git` for the history branch and the workspace's commit. The token never appears
 * on a command line or in a URL: it travels as an http.extraheader through GIT_CONFIG_* variables
 * (as actions/checkout does), and git is told never to prompt. git runs with no global or system
 * config, no hooks and only the variables it needs (docs/security.md). Remotes and branch names
 * are checked before they reach git.
 */
import { execa } from 'execa';

export interface GitResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export type Git = (args: string[]) => Promise<GitResult>;

/** Variables git may need from the job to reach a remote: proxies and certificate authorities. */
const NETWORK_VARS = [
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'ALL_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'all_proxy',
  'GIT_SSL_CAINFO',
  'GIT_SSL_CAPATH',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
];

/**
 * Settings that keep git from running anything it finds on disk: no hooks (of the repository or
 * of a hooks path someone planted), no fsmonitor program, no credential helper, no ext:: remotes.
 * On the command line they outrank every config file, the repository's own included.
 */
export const SAFE_GIT_ARGS = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'credential.helper=',
  '-c',
  'protocol.ext.allow=never',
  '-c',
  'core.askPass=',
];

/**
 * The environment of saboteur's own git: only what it needs, never the job's (no token, no input
 * variable reaches a program git might start), and no global or system config, so a ~/.gitconfig
 * or /etc/gitconfig that a pipeline wrote cannot plant hooks, aliases, filters or helpers.
 */
export function gitEnv(hostEnv: NodeJS.ProcessEnv, extraEnv: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {
    PATH: hostEnv.PATH ?? '/usr/bin:/bin',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '',
    SSH_ASKPASS: '',
    LC_ALL: 'C',
  };
  for (const name of NETWORK_VARS) if (hostEnv[name] !== undefined) env[name] = hostEnv[name]!;
  return { ...env, ...extraEnv };
}

export function gitIn(cwd: string, extraEnv: Record<string, string> = {}, hostEnv: NodeJS.ProcessEnv = process.env): Git {
  const env = gitEnv(hostEnv, extraEnv);
  return async (args) => {
    const r = await execa('git', [...SAFE_GIT_ARGS, ...args], { cwd, env, extendEnv: false, reject: false, stdin: 'ignore' });
    return { exitCode: r.exitCode ?? 1, stdout: String(r.stdout), stderr: String(r.stderr) };
  };
}

/** Checks a history remote: an http(s) or file URL, or an absolute path; nothing git could read as an option. */
export function checkRemote(remote: string): string | undefined {
  if (/\s/.test(remote)) return `the history remote "${remote}" contains whitespace`;
  if (remote.startsWith('-')) return `the history remote "${remote}" starts with "-"`;
  if (/^https?:\/\/[^/\s]+\/\S+$/.test(remote) || /^file:\/\/\/\S+$/.test(remote) || remote.startsWith('/')) return undefined;
  return `the history remote "${remote}" must be an https URL (https://github.com/OWNER/REPO.git), a file:// URL or an absolute path`;
}

/** Checks a data branch name the way git would, plus no leading "-" (so it can never be an option). */
export function checkBranch(branch: string): string | undefined {
  const bad =
    !/^[A-Za-z0-9._/-]+$/.test(branch) ||
    branch.startsWith('-') ||
    branch.startsWith('/') ||
    branch.endsWith('/') ||
    branch.endsWith('.') ||
    branch.endsWith('.lock') ||
    branch.includes('..') ||
    branch.includes('//') ||
    branch.split('/').some((part) => part.startsWith('.'));
  return bad ? `the history branch "${branch}" is not a valid branch name (example: saboteur-data)` : undefined;
}

/** The remote without any credentials someone put in the URL, for messages. */
export function displayRemote(remote: string): string {
  return remote.replace(/^(https?:\/\/)[^/@]*@/, '$1***@');
}

/**
 * GIT_CONFIG_* variables that send the token as a basic-auth header to the remote's host, and the
 * header value (to be masked in logs). Nothing for non-http remotes or without a token.
 */
export function gitAuthEnv(remote: string, token: string | undefined): { env: Record<string, string>; secret?: string } {
  const m = /^(https?:\/\/[^/]+)\//.exec(remote);
  if (!token || !m) return { env: {} };
  const secret = Buffer.from(`x-access-token:${token}`).toString('base64');
  return {
    env: { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: `http.${m[1]}/.extraheader`, GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${secret}` },
    secret,
  };
}

/** The last lines of git's error output, for a message. */
export function gitError(what: string, r: GitResult): Error {
  const tail = `${r.stderr}\n${r.stdout}`.trim().split('\n').slice(-6).join('\n');
  return new Error(`${what} (git exit ${r.exitCode}): ${tail}`);
}
