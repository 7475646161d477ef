/**
 * The GitHub REST client: Octokit with GitHub's recommended throttling (primary and secondary
 * rate limits are waited out and retried) and retries of transient failures (5xx, network). The
 * base URL comes from GITHUB_API_URL, so GitHub Enterprise Server works, and so does a local fake
 * server in tests.
 */
import { Octokit } from '@octokit/rest';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import type { Log } from '../util/log.js';

const GithubOctokit = Octokit.plugin(throttling, retry);
export type GithubClient = InstanceType<typeof GithubOctokit>;

export interface ClientOptions {
  token: string;
  baseUrl: string;
  log: Log;
  userAgent?: string;
  /** How many times a rate-limited request is retried after waiting (default 2). */
  rateLimitRetries?: number;
  /** Retries of 5xx and network failures (default 3). */
  retries?: number;
}

export function createGithubClient(opts: ClientOptions): GithubClient {
  const { log } = opts;
  const limit = opts.rateLimitRetries ?? 2;
  return new GithubOctokit({
    auth: opts.token,
    baseUrl: opts.baseUrl,
    userAgent: opts.userAgent ?? 'saboteur',
    log: {
      debug: (m: string) => log.debug(m),
      info: (m: string) => log.debug(m),
      warn: (m: string) => log.debug(m),
      error: (m: string) => log.debug(m),
    },
    retry: { retries: opts.retries ?? 3 },
    throttle: {
      onRateLimit: (retryAfter: number, options: { method: string; url: string }, _o: unknown, retryCount: number) => {
        log.warn(
          `GitHub rate limit reached on ${options.method} ${options.url}; ${retryCount < limit ? `retrying in ${retryAfter} s` : 'giving up'}`,
        );
        return retryCount < limit;
      },
      onSecondaryRateLimit: (retryAfter: number, options: { method: string; url: string }, _o: unknown, retryCount: number) => {
        log.warn(
          `GitHub secondary rate limit on ${options.method} ${options.url}; ${retryCount < limit ? `retrying in ${retryAfter} s` : 'giving up'}`,
        );
        return retryCount < limit;
      },
    },
  });
}

/** The HTTP status of an Octokit error, if it has one. */
export function statusOf(err: unknown): number | undefined {
  const s = (err as { status?: unknown })?.status;
  return typeof s === 'number' ? s : undefined;
}
