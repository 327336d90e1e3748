/**
 * claude-mem's worker (its local HTTP API, read from its source, v13): `GET /api/health`, and
 * `POST /api/memory/save` with `{ text, title?, project?, metadata? }` (nothing else is
 * accepted) answering `{ success, id, title, project }`. It has no client library; this is the
 * part shim uses. Loaded only by the sync worker and doctor.
 * @module
 */

const REQUEST_TIMEOUT_MS = 10_000;

export type MemoryObservation = {
  title: string;
  text: string;
  project: string;
  metadata: Record<string, unknown>;
};

export class ClaudeMemClient {
  readonly #base: string;

  constructor(baseUrl: string) {
    this.#base = baseUrl.replace(/\/$/, '');
  }

  /** The worker's version when it is running and healthy; null when it is not there. */
  async health(): Promise<string | null> {
    try {
      const response = await fetch(`${this.#base}/api/health`, {
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      if (!response.ok) return null;
      const body = (await response.json()) as { status?: string; version?: string };
      return body.status === 'ok' ? (body.version ?? 'unknown') : null;
    } catch {
      return null;
    }
  }

  /** Saves one observation; returns its id in claude-mem. */
  async save(observation: MemoryObservation): Promise<string> {
    const response = await fetch(`${this.#base}/api/memory/save`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(observation),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const body = (await response.json().catch(() => ({}))) as {
      success?: boolean;
      id?: number;
      error?: string;
    };
    if (!response.ok || body.success !== true)
      throw new Error(`claude-mem answered ${response.status}: ${body.error ?? 'not saved'}`);
    return String(body.id);
  }
}
