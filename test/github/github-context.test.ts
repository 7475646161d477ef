/**
 * The workflow context from real event payloads (pull_request, fork pull_request,
 * pull_request_target, push, schedule, workflow_dispatch) and the safety verdict on each.
 */
import { describe, expect, it } from '@jest/globals';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadGithubContext, parseGithubContext } from '../../src/github/context.js';
import { checkEventSafety } from '../../src/github/safety.js';

const payload = (name: string): unknown => JSON.parse(readFileSync(`fixtures/github/event-${name}.json`, 'utf8'));
const env = (eventName: string, extra: Record<string, string> = {}) => ({
  GITHUB_EVENT_NAME: eventName,
  GITHUB_REPOSITORY: 'acme/agents',
  GITHUB_SHA: 'ee11ee11ee11ee11ee11ee11ee11ee11ee11ee11',
  GITHUB_REF: 'refs/pull/42/merge',
  GITHUB_RUN_ID: '7001',
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_API_URL: 'https://api.github.com',
  ...extra,
});

describe('workflow context', () => {
  it('a pull request: the head commit is measured, against the base branch', () => {
    const ctx = parseGithubContext(
      env('pull_request', { GITHUB_BASE_REF: 'main', GITHUB_HEAD_REF: 'coder-retry' }),
      payload('pull_request'),
    );
    expect(ctx.pr).toEqual({
      number: 42,
      headSha: 'b5e1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9',
      headRef: 'coder-retry',
      headRepo: 'acme/agents',
      baseRef: 'main',
      baseSha: '4f2a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a',
      baseRepo: 'acme/agents',
      fork: false,
      url: 'https://github.com/acme/agents/pull/42',
    });
    expect(ctx).toMatchObject({
      commit: 'b5e1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9',
      branch: 'coder-retry',
      baseBranch: 'main',
      defaultBranch: 'main',
      workflowSha: 'ee11ee11ee11ee11ee11ee11ee11ee11ee11ee11',
    });
    expect(ctx.runUrl).toBe('https://github.com/acme/agents/actions/runs/7001');
    expect(ctx.repository).toEqual({ owner: 'acme', repo: 'agents', fullName: 'acme/agents' });
    expect(checkEventSafety(ctx, { allowForkPrs: false })).toEqual({ ok: true });
  });

  it('a fork pull request is refused unless allowed, saying why', () => {
    const ctx = parseGithubContext(env('pull_request'), payload('pull_request-fork'));
    expect(ctx.pr).toMatchObject({ number: 43, fork: true, headRepo: 'outsider-bob/agents' });
    const verdict = checkEventSafety(ctx, { allowForkPrs: false });
    expect(verdict.ok).toBe(false);
    expect(!verdict.ok && verdict.reason).toMatch(
      /^refusing to run on pull request #43 from outsider-bob\/agents: it would run that fork's code .* allow-fork-prs: 'true'/,
    );
    expect(checkEventSafety(ctx, { allowForkPrs: true })).toEqual({ ok: true });
    // A deleted fork has no head repository: still a fork.
    const gone = payload('pull_request-fork') as { pull_request: { head: { repo: unknown } } };
    gone.pull_request.head.repo = null;
    expect(parseGithubContext(env('pull_request'), gone).pr).toMatchObject({ fork: true, headRepo: null });
  });

  it('pull_request_target with the PR code checked out is refused outright, even with allow-fork-prs', () => {
    const ctx = parseGithubContext(env('pull_request_target', { GITHUB_REF: 'refs/heads/main' }), payload('pull_request_target'));
    const head = checkEventSafety(ctx, { allowForkPrs: true, checkedOut: 'c0ffee1234567890abcdef1234567890abcdef12' });
    expect(head.ok).toBe(false);
    expect(!head.ok && head.reason).toMatch(
      /^refusing to run on pull_request_target with the pull request's code checked out \(HEAD c0ffee1, base ee11ee1, PR head c0ffee1\)\. pull_request_target runs with this repository's secrets and a write token/,
    );
    // Any other commit than the base's (the PR's merge commit, say) is refused too.
    expect(checkEventSafety(ctx, { allowForkPrs: true, checkedOut: '1234567890123456789012345678901234567890' }).ok).toBe(false);
    expect(checkEventSafety(ctx, { allowForkPrs: true, checkedOut: null })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('cannot tell which code is checked out'),
    });
    // The base branch's own code is what pull_request_target is meant to run.
    expect(checkEventSafety(ctx, { allowForkPrs: false, checkedOut: 'ee11ee11ee11ee11ee11ee11ee11ee11ee11ee11' })).toEqual({ ok: true });
  });

  it('a push: the pushed commit on its branch, no pull request', () => {
    const ctx = parseGithubContext(
      env('push', { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: '7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b' }),
      payload('push'),
    );
    expect(ctx.pr).toBeUndefined();
    expect(ctx).toMatchObject({
      commit: '7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b',
      branch: 'main',
      baseBranch: 'main',
      defaultBranch: 'main',
    });
    expect(checkEventSafety(ctx, { allowForkPrs: false })).toEqual({ ok: true });
  });

  it('schedule and workflow_dispatch: GITHUB_SHA on GITHUB_REF', () => {
    for (const name of ['schedule', 'workflow_dispatch']) {
      const ctx = parseGithubContext(env(name, { GITHUB_REF: 'refs/heads/main' }), payload(name));
      expect(ctx).toMatchObject({
        eventName: name,
        commit: 'ee11ee11ee11ee11ee11ee11ee11ee11ee11ee11',
        branch: 'main',
        baseBranch: 'main',
      });
      expect(ctx.pr).toBeUndefined();
    }
  });

  it('GitHub Enterprise Server URLs and a missing or broken event file are handled, never thrown', async () => {
    const ghes = parseGithubContext({ GITHUB_SERVER_URL: 'https://ghe.acme.example' }, undefined);
    expect(ghes.apiUrl).toBe('https://ghe.acme.example/api/v3');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'saboteur-ctx-'));
    await writeFile(path.join(dir, 'event.json'), '{ not json');
    const broken = loadGithubContext({ ...env('pull_request'), GITHUB_EVENT_PATH: path.join(dir, 'event.json') });
    expect(broken.problems[0]).toMatch(/GITHUB_EVENT_PATH .*event\.json: cannot read the event payload/);
    expect(broken.pr).toBeUndefined();
    const missing = loadGithubContext({ ...env('pull_request'), GITHUB_EVENT_PATH: path.join(dir, 'nope.json') });
    expect(missing.problems[0]).toContain('ENOENT');
    expect(parseGithubContext({ GITHUB_REPOSITORY: 'not a repo' }, undefined).problems).toEqual([
      'GITHUB_REPOSITORY "not a repo" is not owner/name',
    ]);
  });
});
