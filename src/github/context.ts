/**
 * What the action needs to know about the workflow run: the event, the repository, the commit
 * measured, the pull request if any. Read from the runner's variables and the event payload
 * (GITHUB_EVENT_PATH) once; the parsing is pure, so real payloads are tested as fixtures.
 */
import { readFileSync } from 'node:fs';
import { asJsonObject, type JsonObject } from '../util/json-object.js';

export interface PullRequestInfo {
  number: number;
  headSha: string;
  headRef: string;
  /** owner/name of the head repository; null when the fork was deleted. */
  headRepo: string | null;
  baseRef: string;
  baseSha?: string;
  baseRepo: string;
  /** The head lives in another repository than the base (or in a deleted one). */
  fork: boolean;
  url?: string;
}

export interface GithubContext {
  eventName?: string;
  repository?: { owner: string; repo: string; fullName: string };
  serverUrl: string;
  apiUrl: string;
  runId?: string;
  /** The commit measured: the pull request's head, else GITHUB_SHA. */
  commit?: string;
  /** The branch of that commit: the PR's head branch, else the pushed branch. */
  branch?: string;
  /** What a regression is measured against: the PR's base branch, else the branch itself. */
  baseBranch?: string;
  defaultBranch?: string;
  /** GITHUB_SHA: on pull_request_target, the base branch's commit. */
  workflowSha?: string;
  ref?: string;
  pr?: PullRequestInfo;
  /** The run's page, where its artifacts are listed. */
  runUrl?: string;
  /** What could not be read (a missing or broken event file); reported as warnings, never fatal. */
  problems: string[];
}

/** Events whose payload carries `pull_request`. */
export const PULL_REQUEST_EVENTS = ['pull_request', 'pull_request_target', 'pull_request_review', 'pull_request_review_comment'];

type Env = Record<string, string | undefined>;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

function branchOf(ref: string | undefined): string | undefined {
  return ref?.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : undefined;
}

function httpUrl(value: string | undefined, fallback: string): string {
  return value && /^https?:\/\/[^\s]+$/.test(value) ? value.replace(/\/+$/, '') : fallback;
}

function parsePullRequest(pr: JsonObject, problems: string[]): PullRequestInfo | undefined {
  const head = asJsonObject(pr.head);
  const base = asJsonObject(pr.base);
  const number = typeof pr.number === 'number' ? pr.number : undefined;
  const headSha = str(head?.sha);
  const baseRepo = str(asJsonObject(base?.repo)?.full_name);
  if (number === undefined || !headSha || !base || !baseRepo) {
    problems.push('the event payload has a pull_request without number, head.sha or base.repo; treated as no pull request');
    return undefined;
  }
  const headRepo = str(asJsonObject(head?.repo)?.full_name) ?? null;
  return {
    number,
    headSha: headSha.toLowerCase(),
    headRef: str(head?.ref) ?? '',
    headRepo,
    baseRef: str(base.ref) ?? '',
    ...(str(base.sha) ? { baseSha: str(base.sha)!.toLowerCase() } : {}),
    baseRepo,
    fork: headRepo === null || headRepo.toLowerCase() !== baseRepo.toLowerCase(),
    ...(str(pr.html_url) ? { url: str(pr.html_url) } : {}),
  };
}

/** The context from the runner's variables and the parsed event payload (undefined when none). */
export function parseGithubContext(env: Env, payload: unknown, problems: string[] = []): GithubContext {
  const serverUrl = httpUrl(env.GITHUB_SERVER_URL, 'https://github.com');
  const apiUrl = httpUrl(env.GITHUB_API_URL, serverUrl === 'https://github.com' ? 'https://api.github.com' : `${serverUrl}/api/v3`);
  const ctx: GithubContext = { serverUrl, apiUrl, problems };
  const eventName = str(env.GITHUB_EVENT_NAME);
  if (eventName) ctx.eventName = eventName;
  const full = str(env.GITHUB_REPOSITORY);
  if (full) {
    const m = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/.exec(full);
    if (m) ctx.repository = { owner: m[1], repo: m[2], fullName: full };
    else problems.push(`GITHUB_REPOSITORY "${full}" is not owner/name`);
  }
  ctx.runId = str(env.GITHUB_RUN_ID);
  if (ctx.repository && ctx.runId && /^\d+$/.test(ctx.runId))
    ctx.runUrl = `${serverUrl}/${ctx.repository.fullName}/actions/runs/${ctx.runId}`;
  const sha = str(env.GITHUB_SHA)?.toLowerCase();
  if (sha) ctx.workflowSha = sha;
  ctx.ref = str(env.GITHUB_REF);
  const p = asJsonObject(payload);
  const defaultBranch = str(asJsonObject(p?.repository)?.default_branch);
  if (defaultBranch) ctx.defaultBranch = defaultBranch;

  const prPayload = asJsonObject(p?.pull_request);
  if (eventName && PULL_REQUEST_EVENTS.includes(eventName) && prPayload) {
    const pr = parsePullRequest(prPayload, problems);
    if (pr) {
      ctx.pr = pr;
      ctx.commit = pr.headSha;
      ctx.branch = pr.headRef || undefined;
      ctx.baseBranch = pr.baseRef || str(env.GITHUB_BASE_REF);
      return ctx;
    }
  }
  if (eventName === 'push' && p) {
    const after = str(p.after)?.toLowerCase();
    ctx.commit = after && !/^0+$/.test(after) ? after : sha;
    ctx.branch = branchOf(str(p.ref) ?? ctx.ref);
  } else {
    ctx.commit = sha;
    ctx.branch = branchOf(ctx.ref) ?? str(env.GITHUB_REF_NAME);
  }
  ctx.baseBranch = ctx.branch;
  return ctx;
}

/** Reads GITHUB_EVENT_PATH (when set) and parses the context; problems are collected, never thrown. */
export function loadGithubContext(env: Env = process.env): GithubContext {
  const problems: string[] = [];
  let payload: unknown;
  const file = env.GITHUB_EVENT_PATH;
  if (file) {
    try {
      payload = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      problems.push(
        `GITHUB_EVENT_PATH ${file}: cannot read the event payload (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      );
    }
  }
  return parseGithubContext(env, payload, problems);
}
