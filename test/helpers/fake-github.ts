/**
 * A local server speaking the part of GitHub's REST API shim uses (shapes from
 * @octokit/openapi-types: issues, comments with Link pagination, labels, the authenticated
 * user), on 127.0.0.1. It can be taken down (503) and counts what it received.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeIssue = {
  number: number;
  id?: number;
  body?: string;
  /** Numbers of its sub-issues. */
  subIssues?: number[];
  stateReason?: string | null;
  title: string;
  state: 'open' | 'closed';
  labels: string[];
  comments: Array<{ id: number; body: string; created_at: string }>;
};

export type FakeGitHub = {
  url: string;
  token: string;
  issues: Map<string, FakeIssue>;
  /** Requests seen, as "METHOD /path". */
  requests: string[];
  /** While true, every request gets 503. */
  down: boolean;
  /** How long to hold an answer after acting on the request (ms): a worker can be killed after
   * its comment was posted and before it heard so. */
  delayMs: number;
  close(): Promise<void>;
};

/** Set per request from FakeGitHub.delayMs. */
let holdMs = 0;

const json = (
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) => {
  const send = () => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(body));
  };
  if (holdMs > 0) setTimeout(send, holdMs);
  else send();
};

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

export async function startFakeGitHub(options: {
  repo: string;
  token?: string;
}): Promise<FakeGitHub> {
  const token = options.token ?? 'ghp_fakeTokenForShimTests0000000000000000';
  let nextId = 1000;
  const state: Omit<FakeGitHub, 'url' | 'close'> = {
    token,
    issues: new Map(),
    requests: [],
    down: false,
    delayMs: 0,
  };
  const issueHtml = (port: number, n: number) =>
    `http://127.0.0.1:${port}/${options.repo}/issues/${n}`;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      state.requests.push(`${req.method} ${url.pathname}`);
      holdMs = state.delayMs;
      if (state.down) return json(res, 503, { message: 'Service Unavailable' });
      const auth = req.headers.authorization ?? '';
      if (auth !== `token ${token}` && auth !== `Bearer ${token}`)
        return json(res, 401, {
          message: 'Bad credentials',
          documentation_url: 'https://docs.github.com/rest',
        });
      const port = (server.address() as AddressInfo).port;
      if (req.method === 'GET' && url.pathname === '/user')
        return json(res, 200, { login: 'shim-tester', id: 1, type: 'User' });
      const create = /^\/repos\/([^/]+\/[^/]+)\/issues$/.exec(url.pathname);
      if (create && req.method === 'POST' && create[1] === options.repo) {
        const body = await readBody(req);
        const number = Math.max(0, ...[...state.issues.values()].map((i) => i.number)) + 1;
        const issue: FakeIssue = {
          number,
          id: 900_000 + number,
          title: String(body.title ?? ''),
          body: String(body.body ?? ''),
          state: 'open',
          labels: [],
          comments: [],
        };
        state.issues.set(String(number), issue);
        return json(res, 201, {
          number,
          id: issue.id,
          title: issue.title,
          state: 'open',
          html_url: issueHtml(port, number),
        });
      }
      const m = /^\/repos\/([^/]+\/[^/]+)\/issues\/(\d+)(\/comments|\/labels|\/sub_issues)?$/.exec(
        url.pathname,
      );
      if (!m || m[1] !== options.repo) return json(res, 404, { message: 'Not Found' });
      const issue = state.issues.get(m[2]!);
      if (!issue) return json(res, 404, { message: 'Not Found' });
      const body = await readBody(req);
      if (!m[3] && req.method === 'GET')
        return json(res, 200, {
          number: issue.number,
          title: issue.title,
          state: issue.state,
          html_url: issueHtml(port, issue.number),
          labels: issue.labels.map((name) => ({ name })),
        });
      if (m[3] === '/comments' && req.method === 'GET') {
        const perPage = Number(url.searchParams.get('per_page') ?? 30);
        const page = Number(url.searchParams.get('page') ?? 1);
        const slice = issue.comments.slice((page - 1) * perPage, page * perPage);
        const last = Math.max(1, Math.ceil(issue.comments.length / perPage));
        const link: Record<string, string> =
          page < last
            ? {
                link: `<http://127.0.0.1:${port}${url.pathname}?per_page=${perPage}&page=${page + 1}>; rel="next", <http://127.0.0.1:${port}${url.pathname}?per_page=${perPage}&page=${last}>; rel="last"`,
              }
            : {};
        return json(
          res,
          200,
          slice.map((c) => ({
            ...c,
            html_url: `${issueHtml(port, issue.number)}#issuecomment-${c.id}`,
          })),
          link,
        );
      }
      if (m[3] === '/comments' && req.method === 'POST') {
        const comment = {
          id: nextId++,
          body: String(body.body ?? ''),
          created_at: new Date().toISOString(),
        };
        issue.comments.push(comment);
        return json(res, 201, {
          ...comment,
          html_url: `${issueHtml(port, issue.number)}#issuecomment-${comment.id}`,
        });
      }
      if (m[3] === '/sub_issues' && req.method === 'POST') {
        const child = [...state.issues.values()].find((i) => i.id === Number(body.sub_issue_id));
        if (!child) return json(res, 422, { message: 'Validation Failed' });
        issue.subIssues = [...(issue.subIssues ?? []), child.number];
        return json(res, 201, { number: issue.number, id: issue.id, title: issue.title });
      }
      if (!m[3] && req.method === 'PATCH') {
        if (body.state === 'closed' || body.state === 'open') issue.state = body.state;
        issue.stateReason = (body.state_reason as string | undefined) ?? null;
        return json(res, 200, {
          number: issue.number,
          state: issue.state,
          title: issue.title,
          html_url: issueHtml(port, issue.number),
        });
      }
      if (m[3] === '/labels' && req.method === 'POST') {
        for (const label of (body.labels as string[]) ?? [])
          if (!issue.labels.includes(label)) issue.labels.push(label);
        return json(
          res,
          200,
          issue.labels.map((name) => ({ name })),
        );
      }
      return json(res, 404, { message: 'Not Found' });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
