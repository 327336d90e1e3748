/**
 * Linear through the official client (@linear/sdk), against LINEAR_API_URL (tests, proxies) or
 * Linear's API. Loaded only by the sync worker and doctor.
 * @module
 */
import { LinearClient } from '@linear/sdk';
import type { IssueRef } from '../core/sync/issue-ref.ts';
import {
  PermanentTrackerError,
  type AuthCheck,
  type IssueFacts,
  type TrackerClient,
} from './tracker-client.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** Linear answers a bad key or a missing issue with these; retrying will not change them. */
function rethrow(error: unknown, what: string): never {
  const type = (error as { type?: string }).type ?? '';
  const message = (error as Error).message ?? String(error);
  if (
    /Authentication|Forbidden|InvalidInput|FeatureNotAccessible/i.test(type) ||
    /not found|Entity not found/i.test(message)
  )
    throw new PermanentTrackerError(`Linear refused ${what}: ${message}`);
  throw error instanceof Error ? error : new Error(String(error));
}

export class LinearClientAdapter implements TrackerClient {
  readonly name = 'Linear';
  readonly #client: LinearClient;

  constructor(options: { apiKey: string; env: Env }) {
    this.#client = new LinearClient({
      apiKey: options.apiKey,
      ...(options.env.LINEAR_API_URL ? { apiUrl: options.env.LINEAR_API_URL } : {}),
    });
  }

  async checkAuth(): Promise<AuthCheck> {
    try {
      const viewer = await this.#client.viewer;
      return { ok: true, who: viewer.email ?? viewer.name };
    } catch (error) {
      const type = (error as { type?: string }).type ?? '';
      return {
        ok: false,
        message: /Authentication/i.test(type)
          ? 'Linear rejected the API key: set LINEAR_API_KEY to a valid personal API key'
          : `Linear did not answer: ${(error as Error).message}`,
      };
    }
  }

  async #issue(ref: IssueRef) {
    try {
      return await this.#client.issue(ref.key);
    } catch (error) {
      rethrow(error, `reading ${ref.key}`);
    }
  }

  async getIssue(ref: IssueRef): Promise<IssueFacts> {
    const issue = await this.#issue(ref);
    const state = await issue.state;
    return { title: issue.title, state: state?.name ?? 'unknown', url: issue.url };
  }

  async findComment(ref: IssueRef, marker: string): Promise<string | null> {
    const issue = await this.#issue(ref);
    let page = await issue.comments({ first: 100 });
    for (;;) {
      const found = page.nodes.find((c) => c.body.includes(marker));
      if (found) return found.id;
      if (!page.pageInfo.hasNextPage) return null;
      page = await page.fetchNext();
    }
  }

  async addComment(ref: IssueRef, body: string): Promise<string> {
    const issue = await this.#issue(ref);
    try {
      const payload = await this.#client.createComment({ issueId: issue.id, body });
      return payload.commentId ?? 'created';
    } catch (error) {
      rethrow(error, `a comment on ${ref.key}`);
    }
  }

  async addLabel(ref: IssueRef, label: string): Promise<void> {
    const issue = await this.#issue(ref);
    try {
      const found = await this.#client.issueLabels({ filter: { name: { eq: label } } });
      const id =
        found.nodes[0]?.id ?? (await this.#client.createIssueLabel({ name: label })).issueLabelId;
      if (!id) throw new Error(`Linear did not create the label ${label}`);
      await this.#client.issueAddLabel(issue.id, id);
    } catch (error) {
      rethrow(error, `the label ${label} on ${ref.key}`);
    }
  }

  async moveTo(ref: IssueRef, stateName: string): Promise<void> {
    const issue = await this.#issue(ref);
    const team = await issue.team;
    if (!team)
      throw new PermanentTrackerError(`${ref.key} has no team to find the state "${stateName}" in`);
    const states = await team.states();
    const target = states.nodes.find((s) => s.name.toLowerCase() === stateName.toLowerCase());
    if (!target)
      throw new PermanentTrackerError(`the team of ${ref.key} has no state "${stateName}"`);
    // Never close an issue from a checkpoint: completed and canceled states are refused.
    if (target.type === 'completed' || target.type === 'canceled')
      throw new PermanentTrackerError(
        `"${stateName}" would close ${ref.key}; shim never closes an issue`,
      );
    await this.#client.updateIssue(issue.id, { stateId: target.id });
  }

  async createSubIssue(parent: IssueRef, title: string, body: string): Promise<IssueRef> {
    const issue = await this.#issue(parent);
    const team = await issue.team;
    if (!team)
      throw new PermanentTrackerError(`${parent.key} has no team to create a sub-issue in`);
    try {
      const payload = await this.#client.createIssue({
        teamId: team.id,
        title,
        description: body,
        parentId: issue.id,
      });
      const created = payload.issueId ? await this.#client.issue(payload.issueId) : null;
      if (!created) throw new Error('Linear did not return the new issue');
      return { tracker: 'linear', key: created.identifier };
    } catch (error) {
      rethrow(error, `a sub-issue of ${parent.key}`);
    }
  }

  async completeSubIssue(ref: IssueRef): Promise<void> {
    const issue = await this.#issue(ref);
    const team = await issue.team;
    const states = team ? await team.states() : null;
    const done = states?.nodes.find((s) => s.type === 'completed');
    if (!done) throw new PermanentTrackerError(`the team of ${ref.key} has no completed state`);
    await this.#client.updateIssue(issue.id, { stateId: done.id });
  }
}
