/**
 * Whether the action may run at all for this event (docs/configuration.md, "Permissions"). It runs the pull request's own code
 * (the pipeline, its dependencies, the config that names the server binary) on a self-hosted GPU
 * runner, so:
 * - a pull request from a fork is refused unless `allow-fork-prs: true`;
 * - `pull_request_target` with the pull request's code checked out is refused outright: that
 *   event runs with the base repository's secrets and a write token, so checking out the PR's
 *   code there hands both to whoever opened the pull request.
 * Pure: the context and what is checked out in, a verdict out.
 */
import type { GithubContext } from './context.js';

export type SafetyVerdict = { ok: true } | { ok: false; reason: string };

export interface SafetyInputs {
  allowForkPrs: boolean;
  /** `git rev-parse HEAD` in the workspace; null when it could not be read. Only asked on pull_request_target. */
  checkedOut?: string | null;
}

export function checkEventSafety(ctx: GithubContext, inputs: SafetyInputs): SafetyVerdict {
  const pr = ctx.pr;
  if (ctx.eventName === 'pull_request_target' && pr) {
    const head = inputs.checkedOut?.toLowerCase();
    const base = ctx.workflowSha;
    if (!head) {
      return {
        ok: false,
        reason:
          'refusing to run on pull_request_target: cannot tell which code is checked out in the workspace (no git repository there). ' +
          "pull_request_target runs with this repository's secrets and a write token; running the pull request's code under it hands both to its author. " +
          'Use the pull_request event instead.',
      };
    }
    if (head === pr.headSha || (base && head !== base)) {
      return {
        ok: false,
        reason:
          `refusing to run on pull_request_target with the pull request's code checked out (HEAD ${head.slice(0, 7)}, base ${base ? base.slice(0, 7) : 'unknown'}, PR head ${pr.headSha.slice(0, 7)}). ` +
          "pull_request_target runs with this repository's secrets and a write token, and saboteur runs the checked-out pipeline: the pull request's author would control both. " +
          'Use the pull_request event (fork pull requests then get a read-only token and no secrets), and see Permissions in docs/configuration.md.',
      };
    }
    return { ok: true };
  }
  if (pr?.fork && !inputs.allowForkPrs) {
    return {
      ok: false,
      reason:
        `refusing to run on pull request #${pr.number} from ${pr.headRepo ?? 'a deleted fork'}: it would run that fork's code (pipeline, dependencies, config) on this runner. ` +
        "Set allow-fork-prs: 'true' only on runners that hold nothing worth stealing (ephemeral, no secrets), or keep fork pull requests off the runner with the job's if: (see Permissions in docs/configuration.md).",
    };
  }
  return { ok: true };
}
