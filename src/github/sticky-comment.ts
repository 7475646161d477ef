/**
 * The sticky PR comment: one comment per pull request, found again by a hidden marker among the
 * comments this token's own account wrote, updated in place, left alone when nothing changed.
 * Comments by people are never touched, even when they quote the marker.
 */
import type { GithubClient } from './client.js';
import { statusOf } from './client.js';

export interface IssueComment {
  id: number;
  body?: string | null;
  user: { login: string; type?: string } | null;
  html_url?: string;
}

/** The few calls the sticky comment needs; the real one is Octokit, tests may bring their own server. */
export interface CommentsApi {
  /** The comments of an issue or pull request, page by page, oldest first; iteration may stop early. */
  pages(issue: number): AsyncIterable<IssueComment[]>;
  create(issue: number, body: string): Promise<IssueComment>;
  update(commentId: number, body: string): Promise<IssueComment>;
  /** The token's own login, or undefined when the token cannot say (GITHUB_TOKEN cannot read /user). */
  self(): Promise<string | undefined>;
}

export function octokitComments(client: GithubClient, owner: string, repo: string): CommentsApi {
  return {
    async *pages(issue) {
      for await (const page of client.paginate.iterator(client.rest.issues.listComments, {
        owner,
        repo,
        issue_number: issue,
        per_page: 100,
      })) {
        yield page.data as IssueComment[];
      }
    },
    async create(issue, body) {
      return (await client.rest.issues.createComment({ owner, repo, issue_number: issue, body })).data as IssueComment;
    },
    async update(commentId, body) {
      return (await client.rest.issues.updateComment({ owner, repo, comment_id: commentId, body })).data as IssueComment;
    },
    async self() {
      try {
        return (await client.rest.users.getAuthenticated()).data.login;
      } catch (err) {
        // Installation tokens (GITHUB_TOKEN, GitHub Apps) get 403 here: fall back to "a bot wrote it".
        if (statusOf(err) === 403 || statusOf(err) === 401 || statusOf(err) === 404) return undefined;
        throw err;
      }
    },
  };
}

/**
 * Whether a comment is ours: written by the token's own login when known, else by a bot account
 * (GITHUB_TOKEN comments as github-actions[bot], an app as <app>[bot]).
 */
export function isOwnComment(c: IssueComment, self: string | undefined): boolean {
  if (!c.user) return false;
  if (self) return c.user.login === self;
  return c.user.type === 'Bot' || /\[bot\]$/.test(c.user.login);
}

export interface StickyResult {
  action: 'created' | 'updated' | 'unchanged';
  id: number;
  url?: string;
  /** Pages read to find the comment. */
  pagesRead: number;
}

/** Creates the comment, or updates ours in place (skipping the update when the body is the same). */
export async function upsertStickyComment(api: CommentsApi, issue: number, body: string, marker: string): Promise<StickyResult> {
  const self = await api.self();
  let pagesRead = 0;
  let found: IssueComment | undefined;
  for await (const page of api.pages(issue)) {
    pagesRead++;
    found = page.find((c) => isOwnComment(c, self) && (c.body ?? '').includes(marker));
    if (found) break;
  }
  if (!found) {
    const created = await api.create(issue, body);
    return { action: 'created', id: created.id, url: created.html_url, pagesRead };
  }
  if ((found.body ?? '') === body) return { action: 'unchanged', id: found.id, url: found.html_url, pagesRead };
  const updated = await api.update(found.id, body);
  return { action: 'updated', id: updated.id, url: updated.html_url ?? found.html_url, pagesRead };
}

/** Why a comment could not be posted, in words a workflow author can act on. */
export function explainCommentFailure(err: unknown, pr: { fork: boolean }): string {
  const status = statusOf(err);
  const message = (err as Error)?.message ?? String(err);
  if (status === 403 || status === 404) {
    return pr.fork
      ? `the token may not comment on this pull request (HTTP ${status}: ${message}); pull requests from forks get a read-only token. The report is in the job summary.`
      : `the token may not comment on this pull request (HTTP ${status}: ${message}); give the job "permissions: pull-requests: write". The report is in the job summary.`;
  }
  if (status === 401) return `the github-token was refused (HTTP 401: ${message}). The report is in the job summary.`;
  return `could not post the pull request comment (${status ? `HTTP ${status}: ` : ''}${message}). The report is in the job summary.`;
}
