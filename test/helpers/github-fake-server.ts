/**
 * A local stand-in for the GitHub REST API, over real HTTP on 127.0.0.1: the issue comment calls
 * the sticky comment makes, paginated with Link headers as GitHub does, with tokens of different
 * powers (a fork's read-only token gets 403) and one-shot faults (a 5xx, a primary rate limit).
 * Every request is recorded so tests can count retries and writes.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeComment {
  id: number;
  body: string;
  user: { login: string; type: 'User' | 'Bot' };
  created_at: string;
  updated_at: string;
}

export interface FakeToken {
  /** The account the token acts as. */
  login: string;
  type: 'User' | 'Bot';
  /** Whether GET /user answers (personal tokens) or 403s (installation tokens like GITHUB_TOKEN). */
  canReadUser: boolean;
  /** Whether the token may write comments (a fork pull request's token may not). */
  canWrite: boolean;
}

export interface Fault {
  method: string;
  /** Matched against the path without the query. */
  path: RegExp;
  kind: '5xx' | 'rate-limit';
  /** Faults fire once. */
  fired?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: string;
  status: number;
  token?: string;
}

export interface FakeGithub {
  url: string;
  comments: Map<number, FakeComment[]>;
  tokens: Map<string, FakeToken>;
  faults: Fault[];
  requests: RecordedRequest[];
  /** Largest page the server hands out, whatever per_page asks (GitHub's is 100). */
  maxPerPage: number;
  close(): Promise<void>;
}

const STAMP = '2026-11-21T12:00:00Z';

export async function startFakeGithub(opts: { maxPerPage?: number } = {}): Promise<FakeGithub> {
  let nextId = 5_000_000;
  const state = {
    comments: new Map<number, FakeComment[]>(),
    tokens: new Map<string, FakeToken>(),
    faults: [] as Fault[],
    requests: [] as RecordedRequest[],
    maxPerPage: opts.maxPerPage ?? 100,
  };
  let base = '';

  function send(res: http.ServerResponse, rec: RecordedRequest, status: number, body: unknown, headers: Record<string, string> = {}): void {
    rec.status = status;
    state.requests.push(rec);
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'x-ratelimit-limit': '5000',
      'x-ratelimit-remaining': '4999',
      'x-github-request-id': `FAKE:${state.requests.length}`,
      ...headers,
    });
    res.end(body === undefined ? '' : JSON.stringify(body));
  }

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', base);
      const auth = /^(?:token|bearer)\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
      const rec: RecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.search,
        status: 0,
        ...(auth ? { token: auth } : {}),
      };
      const fault = state.faults.find((f) => !f.fired && f.method === rec.method && f.path.test(url.pathname));
      if (fault) {
        fault.fired = true;
        if (fault.kind === '5xx') return send(res, rec, 502, { message: 'Server Error' });
        // GitHub's primary rate limit: 403 with remaining 0 and the reset time in epoch seconds.
        return send(
          res,
          rec,
          403,
          {
            message: 'API rate limit exceeded for installation ID 4242.',
            documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
          },
          { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000)) },
        );
      }
      const token = auth ? state.tokens.get(auth) : undefined;
      if (!token) return send(res, rec, 401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
      if (rec.method === 'GET' && url.pathname === '/user') {
        if (!token.canReadUser)
          return send(res, rec, 403, {
            message: 'Resource not accessible by integration',
            documentation_url: 'https://docs.github.com/rest/users/users#get-the-authenticated-user',
          });
        return send(res, rec, 200, { login: token.login, id: 1, type: token.type });
      }
      const list = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(url.pathname);
      if (list && rec.method === 'GET') {
        const all = state.comments.get(Number(list[3])) ?? [];
        const perPage = Math.min(state.maxPerPage, Number(url.searchParams.get('per_page') ?? 30));
        const page = Number(url.searchParams.get('page') ?? 1);
        const last = Math.max(1, Math.ceil(all.length / perPage));
        const link = (p: number, rel: string) => {
          const u = new URL(url.pathname, base);
          u.searchParams.set('per_page', String(perPage));
          u.searchParams.set('page', String(p));
          return `<${u.toString()}>; rel="${rel}"`;
        };
        const links: string[] = [];
        if (page < last) links.push(link(page + 1, 'next'), link(last, 'last'));
        if (page > 1) links.push(link(1, 'first'), link(page - 1, 'prev'));
        const slice = all
          .slice((page - 1) * perPage, page * perPage)
          .map((c) => ({ ...c, html_url: `https://github.com/${list[1]}/${list[2]}/pull/${list[3]}#issuecomment-${c.id}` }));
        return send(res, rec, 200, slice, links.length ? { link: links.join(', ') } : {});
      }
      if (list && rec.method === 'POST') {
        if (!token.canWrite)
          return send(res, rec, 403, {
            message: 'Resource not accessible by integration',
            documentation_url: 'https://docs.github.com/rest/issues/comments#create-an-issue-comment',
          });
        const body = (JSON.parse(raw || '{}') as { body?: string }).body ?? '';
        if (body.length > 65_536)
          return send(res, rec, 422, {
            message: 'Validation Failed',
            errors: [
              { resource: 'IssueComment', code: 'custom', field: 'body', message: 'body is too long (maximum is 65536 characters)' },
            ],
          });
        const c: FakeComment = { id: nextId++, body, user: { login: token.login, type: token.type }, created_at: STAMP, updated_at: STAMP };
        const issue = Number(list[3]);
        state.comments.set(issue, [...(state.comments.get(issue) ?? []), c]);
        return send(res, rec, 201, { ...c, html_url: `https://github.com/${list[1]}/${list[2]}/pull/${issue}#issuecomment-${c.id}` });
      }
      const one = /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/(\d+)$/.exec(url.pathname);
      if (one && rec.method === 'PATCH') {
        if (!token.canWrite) return send(res, rec, 403, { message: 'Resource not accessible by integration' });
        const id = Number(one[3]);
        for (const [issue, comments] of state.comments) {
          const c = comments.find((x) => x.id === id);
          if (!c) continue;
          if (c.user.login !== token.login) return send(res, rec, 403, { message: 'Must have admin rights to Repository.' });
          const body = (JSON.parse(raw || '{}') as { body?: string }).body ?? '';
          if (body.length > 65_536) return send(res, rec, 422, { message: 'Validation Failed' });
          c.body = body;
          c.updated_at = STAMP;
          return send(res, rec, 200, { ...c, html_url: `https://github.com/${one[1]}/${one[2]}/pull/${issue}#issuecomment-${c.id}` });
        }
        return send(res, rec, 404, { message: 'Not Found' });
      }
      return send(res, rec, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    comments: state.comments,
    tokens: state.tokens,
    faults: state.faults,
    requests: state.requests,
    get maxPerPage() {
      return state.maxPerPage;
    },
    set maxPerPage(v: number) {
      state.maxPerPage = v;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Fills an issue with comments of other people and bots: pages to read through. */
export function seedComments(
  gh: FakeGithub,
  issue: number,
  count: number,
  extra: Omit<FakeComment, 'id' | 'created_at' | 'updated_at'>[] = [],
): void {
  const list: FakeComment[] = [];
  for (let i = 0; i < count; i++) {
    const bot = i % 7 === 3;
    list.push({
      id: 1000 + i,
      body: bot ? `Coverage report ${i}: 81.2%` : `Looks good to me (${i})`,
      user: bot ? { login: 'codecov[bot]', type: 'Bot' } : { login: `reviewer-${i % 5}`, type: 'User' },
      created_at: STAMP,
      updated_at: STAMP,
    });
  }
  extra.forEach((e, i) => list.splice(Math.min(list.length, 2 + i * 3), 0, { ...e, id: 900 + i, created_at: STAMP, updated_at: STAMP }));
  gh.comments.set(issue, list);
}
