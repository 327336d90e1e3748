/**
 * GitHub Issues through the official client (@octokit/rest), against GITHUB_API_URL (GitHub
 * Enterprise, tests) or the public API. Loaded only by the sync worker and doctor.
 * @module
 */
import { Octokit } from '@octokit/rest';
import type { IssueRef } from '../core/sync/issue-ref.ts';
import {
  PermanentTrackerError,
  type AuthCheck,
  type IssueFacts,
  type TrackerClient,
} from './tracker-client.ts';

type Env = Readonly<Record<string, string | undefined>>;

export const DEFAULT_GITHUB_API = 'https://api.github.com';

/** No request may hold a worker (or shim doctor) longer than this. */
const REQUEST_TIMEOUT_MS = 20_000;
const timeout = () => ({ request: { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) } });

/** An answer that will be the same next time: the token, the issue or the request is wrong. */
function rethrow(error: unknown, what: string): never {
  const status = (error as { status?: number }).status;
  const message = (error as { message?: string }).message ?? String(error);
  if (status === 401 || status === 403 || status === 404 || status === 410 || status === 422)
    throw new PermanentTrackerError(`GitHub answered ${status} to ${what}: ${message}`);
  throw error instanceof Error ? error : new Error(String(error));
}

export class GitHubClient implements TrackerClient {
  readonly name = 'GitHub';
  readonly #octokit: Octokit;
  readonly #defaultRepo: string | null;

  constructor(options: { token: string; env: Env; repo: string | null }) {
    this.#octokit = new Octokit({
      auth: options.token,
      baseUrl: (options.env.GITHUB_API_URL ?? DEFAULT_GITHUB_API).replace(/\/$/, ''),
      userAgent: 'shim',
      // Retries are the outbox's: one attempt per send, the next after a backoff.
      request: { retries: 0 },
      log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    });
    this.#defaultRepo = options.repo;
  }

  #where(ref: IssueRef) {
    const repo = ref.repo ?? this.#defaultRepo;
    const [owner, name] = (repo ?? '').split('/');
    if (!owner || !name)
      throw new PermanentTrackerError(
        `no GitHub repository for issue #${ref.key}: the project has no GitHub origin remote; link it as owner/repo#${ref.key}`,
      );
    return { owner, repo: name, issue_number: Number(ref.key) };
  }

  async checkAuth(): Promise<AuthCheck> {
    try {
      const { data } = await this.#octokit.rest.users.getAuthenticated(timeout());
      return { ok: true, who: data.login };
    } catch (error) {
      const status = (error as { status?: number }).status;
      return {
        ok: false,
        message:
          status === 401
            ? 'GitHub rejected the token (401 Bad credentials): set GITHUB_TOKEN to a valid token, or run gh auth login'
            : `GitHub did not answer: ${(error as Error).message}`,
      };
    }
  }

  async getIssue(ref: IssueRef): Promise<IssueFacts> {
    try {
      const { data } = await this.#octokit.rest.issues.get({ ...this.#where(ref), ...timeout() });
      return { title: data.title, state: data.state, url: data.html_url };
    } catch (error) {
      rethrow(error, `reading issue #${ref.key}`);
    }
  }

  async findComment(ref: IssueRef, marker: string): Promise<string | null> {
    try {
      for await (const page of this.#octokit.paginate.iterator(
        this.#octokit.rest.issues.listComments,
        { ...this.#where(ref), per_page: 100, ...timeout() },
      )) {
        const found = page.data.find((c) => c.body?.includes(marker));
        if (found) return String(found.id);
      }
      return null;
    } catch (error) {
      rethrow(error, `listing the comments of #${ref.key}`);
    }
  }

  async addComment(ref: IssueRef, body: string): Promise<string> {
    try {
      const { data } = await this.#octokit.rest.issues.createComment({
        ...this.#where(ref),
        body,
        ...timeout(),
      });
      return String(data.id);
    } catch (error) {
      rethrow(error, `commenting on #${ref.key}`);
    }
  }

  async addLabel(ref: IssueRef, label: string): Promise<void> {
    try {
      await this.#octokit.rest.issues.addLabels({
        ...this.#where(ref),
        labels: [label],
        ...timeout(),
      });
    } catch (error) {
      rethrow(error, `labelling #${ref.key}`);
    }
  }

  /** GitHub issues are open or closed, and shim never closes one: a state move is not sent. */
  async moveTo(): Promise<void> {}

  async createSubIssue(parent: IssueRef, title: string, body: string): Promise<IssueRef> {
    const where = this.#where(parent);
    try {
      const { data } = await this.#octokit.rest.issues.create({
        owner: where.owner,
        repo: where.repo,
        title,
        body,
        ...timeout(),
      });
      await this.#octokit.rest.issues.addSubIssue({
        ...where,
        sub_issue_id: data.id,
        ...timeout(),
      });
      return { tracker: 'github', key: String(data.number), repo: `${where.owner}/${where.repo}` };
    } catch (error) {
      rethrow(error, `a sub-issue of #${parent.key}`);
    }
  }

  async completeSubIssue(ref: IssueRef): Promise<void> {
    try {
      await this.#octokit.rest.issues.update({
        ...this.#where(ref),
        state: 'closed',
        state_reason: 'completed',
        ...timeout(),
      });
    } catch (error) {
      rethrow(error, `closing #${ref.key}`);
    }
  }
}
