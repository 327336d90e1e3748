/**
 * A local server speaking the part of Linear's GraphQL API shim uses, for @linear/sdk: the
 * documents the client sends are executed (graphql-js) against a schema holding the types,
 * fields and inputs of those operations, named and shaped as in Linear's schema; fields the
 * client's fragments ask for beyond them are left out, as the client allows.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildSchema, execute, parse } from 'graphql';

const SCHEMA = buildSchema(`
  scalar DateTime
  enum PaginationOrderBy { createdAt updatedAt }
  input StringComparator { eq: String }
  input IssueLabelFilter { name: StringComparator }
  input CommentFilter { body: StringComparator }
  input WorkflowStateFilter { name: StringComparator }
  input CommentCreateInput { issueId: String body: String }
  input IssueLabelCreateInput { name: String! teamId: String color: String }
  input IssueUpdateInput { stateId: String title: String }
  input IssueCreateInput { teamId: String! title: String description: String parentId: String }
  type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
  type User { id: ID! name: String! email: String! displayName: String! }
  type WorkflowState { id: ID! name: String! type: String! }
  type WorkflowStateConnection { nodes: [WorkflowState!]! pageInfo: PageInfo! }
  type Team {
    id: ID! key: String! name: String!
    states(after: String, before: String, filter: WorkflowStateFilter, first: Int, includeArchived: Boolean, last: Int, orderBy: PaginationOrderBy): WorkflowStateConnection!
  }
  type Reaction { id: ID! emoji: String! }
  type IssueSharedAccess { isShared: Boolean! sharedWithCount: Int! sharedWithUsers: [User!]! }
  type Comment { id: ID! body: String! createdAt: DateTime! updatedAt: DateTime! reactions: [Reaction!]! }
  type CommentConnection { nodes: [Comment!]! pageInfo: PageInfo! }
  type IssueLabel { id: ID! name: String! }
  type IssueLabelConnection { nodes: [IssueLabel!]! pageInfo: PageInfo! }
  type Issue {
    id: ID! identifier: String! title: String! url: String!
    state: WorkflowState team: Team
    reactions: [Reaction!]! sharedAccess: IssueSharedAccess!
    comments(after: String, before: String, filter: CommentFilter, first: Int, includeArchived: Boolean, last: Int, orderBy: PaginationOrderBy): CommentConnection!
  }
  type CommentPayload { comment: Comment success: Boolean! lastSyncId: Float! }
  type IssueLabelPayload { issueLabel: IssueLabel success: Boolean! lastSyncId: Float! }
  type IssuePayload { issue: Issue success: Boolean! lastSyncId: Float! }
  type Query {
    viewer: User!
    issue(id: String!): Issue!
    issueLabels(after: String, before: String, filter: IssueLabelFilter, first: Int, includeArchived: Boolean, last: Int, orderBy: PaginationOrderBy): IssueLabelConnection!
    workflowState(id: String!): WorkflowState!
    team(id: String!): Team!
  }
  type Mutation {
    commentCreate(input: CommentCreateInput!): CommentPayload!
    issueLabelCreate(input: IssueLabelCreateInput!, replaceTeamLabels: Boolean): IssueLabelPayload!
    issueAddLabel(id: String!, labelId: String!): IssuePayload!
    issueUpdate(id: String!, input: IssueUpdateInput!): IssuePayload!
    issueCreate(input: IssueCreateInput!): IssuePayload!
  }
`);

export type FakeLinearIssue = {
  id: string;
  parentId?: string;
  description?: string;
  identifier: string;
  title: string;
  stateId: string;
  labelIds: string[];
  comments: Array<{ id: string; body: string }>;
};

export type FakeLinear = {
  url: string;
  apiKey: string;
  issues: FakeLinearIssue[];
  labels: Array<{ id: string; name: string }>;
  states: Array<{ id: string; name: string; type: string }>;
  /** Operation names received. */
  operations: string[];
  down: boolean;
  close(): Promise<void>;
};

const page = <T>(nodes: T[]) => ({
  nodes,
  pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
});

export async function startFakeLinear(): Promise<FakeLinear> {
  const apiKey = 'lin_api_fakeKeyForShimTests00000000000000000000';
  let next = 1;
  const state = {
    apiKey,
    issues: [] as FakeLinearIssue[],
    labels: [] as Array<{ id: string; name: string }>,
    states: [
      { id: 'st-todo', name: 'Todo', type: 'unstarted' },
      { id: 'st-progress', name: 'In Progress', type: 'started' },
      { id: 'st-done', name: 'Done', type: 'completed' },
    ],
    operations: [] as string[],
    down: false,
  };
  const team = { id: 'team-1', key: 'TST', name: 'Test', states: () => page(state.states) };
  const find = (id: string) => {
    const issue = state.issues.find((i) => i.id === id || i.identifier === id);
    if (!issue) throw new Error('Entity not found: Issue');
    return issue;
  };
  const view = (i: FakeLinearIssue) => ({
    id: i.id,
    identifier: i.identifier,
    title: i.title,
    url: `https://linear.app/test/issue/${i.identifier}`,
    state: state.states.find((s) => s.id === i.stateId),
    team,
    reactions: [],
    sharedAccess: { isShared: false, sharedWithCount: 0, sharedWithUsers: [] },
    comments: () =>
      page(
        i.comments.map((c) => ({
          ...c,
          reactions: [],
          createdAt: new Date().toISOString(),
          updatedAt: new Date().toISOString(),
        })),
      ),
  });
  const root = {
    viewer: () => ({
      id: 'user-1',
      name: 'Shim Tester',
      email: 'tester@example.com',
      displayName: 'tester',
    }),
    issue: ({ id }: { id: string }) => view(find(id)),
    issueLabels: ({ filter }: { filter?: { name?: { eq?: string } } }) =>
      page(state.labels.filter((l) => !filter?.name?.eq || l.name === filter.name.eq)),
    workflowState: ({ id }: { id: string }) => state.states.find((s) => s.id === id),
    team: () => team,
    commentCreate: ({ input }: { input: { issueId: string; body: string } }) => {
      const comment = { id: `comment-${next++}`, body: input.body };
      find(input.issueId).comments.push(comment);
      return { comment, success: true, lastSyncId: next };
    },
    issueLabelCreate: ({ input }: { input: { name: string } }) => {
      const label = { id: `label-${next++}`, name: input.name };
      state.labels.push(label);
      return { issueLabel: label, success: true, lastSyncId: next };
    },
    issueAddLabel: ({ id, labelId }: { id: string; labelId: string }) => {
      const issue = find(id);
      if (!issue.labelIds.includes(labelId)) issue.labelIds.push(labelId);
      return { issue: view(issue), success: true, lastSyncId: next++ };
    },
    issueCreate: ({
      input,
    }: {
      input: { title: string; description?: string; parentId?: string };
    }) => {
      const n = state.issues.length + 100;
      const issue: FakeLinearIssue = {
        id: `issue-${n}`,
        identifier: `TST-${n}`,
        title: input.title,
        stateId: 'st-todo',
        labelIds: [],
        comments: [],
        ...(input.parentId ? { parentId: input.parentId } : {}),
        ...(input.description ? { description: input.description } : {}),
      };
      state.issues.push(issue);
      return { issue: view(issue), success: true, lastSyncId: next++ };
    },
    issueUpdate: ({ id, input }: { id: string; input: { stateId?: string } }) => {
      const issue = find(id);
      if (input.stateId) issue.stateId = input.stateId;
      return { issue: view(issue), success: true, lastSyncId: next++ };
    },
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      let text = '';
      for await (const chunk of req) text += String(chunk);
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (state.down) return reply(503, { errors: [{ message: 'Service Unavailable' }] });
      if (req.headers.authorization !== apiKey)
        return reply(400, {
          errors: [
            {
              message: 'Authentication required, not authenticated',
              extensions: { type: 'authentication error', code: 'AUTHENTICATION_ERROR' },
            },
          ],
        });
      const { query, variables, operationName } = JSON.parse(text) as {
        query: string;
        variables?: Record<string, unknown>;
        operationName?: string;
      };
      const document = parse(query);
      const name =
        operationName ??
        document.definitions.map((d) => ('name' in d ? d.name?.value : '')).find(Boolean) ??
        '';
      state.operations.push(name);
      // Not validated: the client's fragments ask for more than this schema holds.
      const result = await execute({
        schema: SCHEMA,
        document,
        rootValue: root,
        variableValues: variables ?? {},
      });
      reply(200, result);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/graphql`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
