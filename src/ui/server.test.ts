import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { makeTempDir } from '../../test/helpers/fixtures.ts';
import { CONTENT_SECURITY_POLICY, createDashboardApp } from './server.ts';
import { testAgents } from '../../test/helpers/agents.ts';

const root = makeTempDir('shim-ui-server-');
after(() => rmSync(root, { recursive: true, force: true }));

const app = createDashboardApp({
  agents: testAgents,
  home: join(root, 'shim'),
  env: { CLAUDE_CONFIG_DIR: join(root, 'claude') },
  token: 'secret-token-of-this-launch',
  assets: { js: 'console.log(1)', css: 'body{}' },
  port: () => 4321,
});
const HOST = { host: '127.0.0.1:4321' };
const get = (path: string, headers: Record<string, string> = HOST) =>
  app.request(path, { headers });

describe('the dashboard server', () => {
  test('the token from the link, then its cookie; nothing without them', async () => {
    assert.equal((await get('/')).status, 403);
    assert.equal((await get('/?token=secret-token-of-this-launch-')).status, 403);
    const first = await get('/?token=secret-token-of-this-launch');
    assert.equal(first.status, 200);
    const cookie = first.headers.get('set-cookie')!;
    assert.match(cookie, /shim_ui=secret-token-of-this-launch; Path=\/; HttpOnly; SameSite=Strict/);
    const next = await get('/api/sessions', { ...HOST, cookie: cookie.split(';')[0]! });
    assert.equal(next.status, 200);
    assert.deepEqual(await next.json(), { sessions: [], total: 0, projects: [], snippets: {} });
  });

  test('another host name is refused even with the token (DNS rebinding)', async () => {
    const t = '?token=secret-token-of-this-launch';
    assert.equal((await get(`/${t}`, { host: 'attacker.example:4321' })).status, 403);
    assert.equal((await get(`/${t}`, { host: '127.0.0.1:9999' })).status, 403);
    assert.equal((await get(`/${t}`, { host: 'localhost:4321' })).status, 200);
  });

  test('every answer carries the policy; the page loads only its own script and styles', async () => {
    const page = await get('/?token=secret-token-of-this-launch');
    assert.equal(page.headers.get('content-security-policy'), CONTENT_SECURITY_POLICY);
    assert.equal(page.headers.get('x-frame-options'), 'DENY');
    assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
    const html = await page.text();
    assert.match(html, /<script src="\/app.js"><\/script>/);
    assert.doesNotMatch(html, /<script>|style=/);
    const refused = await get('/');
    assert.equal(refused.headers.get('content-security-policy'), CONTENT_SECURITY_POLICY);
  });

  test('read-only, and ids that are not ids are refused before any lookup', async () => {
    const t = 'token=secret-token-of-this-launch';
    const post = await app.request(`/api/sessions?${t}`, { method: 'POST', headers: HOST });
    assert.equal(post.status, 405);
    const bad = await get(`/api/sessions/a..b/timeline?${t}`);
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { error: string }).error, /not a session id/);
    const escaped = await get(`/api/sessions/..%2F..%2Fetc%2Fpasswd/timeline?${t}`);
    assert.ok([400, 404].includes(escaped.status), String(escaped.status));
    assert.equal((await get(`/api/checkpoints/a..b?${t}`)).status, 400);
    assert.equal((await get(`/api/loops/a.b?${t}`)).status, 400);
    for (const path of [`/api/checkpoints/a%2Fb?${t}`, `/api/loops/..?${t}`])
      assert.ok([400, 404].includes((await get(path)).status), path);
    const missing = await get(`/api/sessions/0f3c/timeline?${t}`);
    assert.equal(missing.status, 404);
    assert.equal((await get(`/nothing-here?${t}`)).status, 404);
  });

  test('the live page and a lineage answer with nothing running and nothing restored', async () => {
    const t = 'token=secret-token-of-this-launch';
    const live = await get(`/api/live?${t}`);
    assert.equal(live.status, 200);
    assert.deepEqual(await live.json(), { sessions: [], windowMinutes: 15 });
    const lineage = await get(`/api/sessions/abc-123/lineage?${t}`);
    assert.equal(lineage.status, 200);
    assert.deepEqual(await lineage.json(), {
      sessionId: 'abc-123',
      goal: null,
      steps: [{ sessionId: 'abc-123', part: 1, project: null, startedAt: null, via: null }],
    });
    assert.equal((await get(`/api/sessions/a..b/lineage?${t}`)).status, 400);
  });
});
