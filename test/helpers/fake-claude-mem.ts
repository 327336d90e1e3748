/**
 * A local server speaking the part of claude-mem's worker API shim uses, with the shapes of its
 * source (v13): `GET /api/health` and `POST /api/memory/save` accepting exactly
 * `{ text (non-empty), title?, project?, metadata? }` and answering `{ success, id, title, project }`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type SavedObservation = {
  id: number;
  text: string;
  title?: string;
  project?: string;
  metadata?: Record<string, unknown>;
};

export type FakeClaudeMem = { port: number; saved: SavedObservation[]; close(): Promise<void> };

const ALLOWED = new Set(['text', 'title', 'project', 'metadata']);

export async function startFakeClaudeMem(port = 0): Promise<FakeClaudeMem> {
  const saved: SavedObservation[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'GET' && req.url === '/api/health')
        return reply(200, { status: 'ok', version: '13.15.3' });
      if (req.method !== 'POST' || req.url !== '/api/memory/save')
        return reply(404, { error: 'Not found' });
      let text = '';
      for await (const chunk of req) text += String(chunk);
      const body = JSON.parse(text) as Record<string, unknown>;
      const unknown = Object.keys(body).filter((k) => !ALLOWED.has(k));
      if (unknown.length > 0 || typeof body.text !== 'string' || body.text.trim() === '')
        return reply(400, { error: 'Invalid request body', details: unknown });
      const observation = { id: saved.length + 1, ...(body as Omit<SavedObservation, 'id'>) };
      saved.push(observation);
      reply(200, {
        success: true,
        id: observation.id,
        title: observation.title,
        project: observation.project,
        message: `Memory saved as observation #${observation.id}`,
      });
    })();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    saved,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
