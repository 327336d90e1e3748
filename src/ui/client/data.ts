/**
 * Where the page's data comes from: the `shim ui` server, or — in an exported file — the data
 * embedded in the page itself.
 * @module
 */
export type Embedded = {
  kind: 'session' | 'loop';
  /** What each API path answered when the file was exported. */
  responses: Record<string, unknown>;
  start: string;
};

function readEmbedded(): Embedded | null {
  const el = document.getElementById('shim-data');
  if (!el?.textContent) return null;
  return JSON.parse(el.textContent) as Embedded;
}

export const embedded = readEmbedded();

export class RequestFailed extends Error {}

export async function getJson<T>(path: string): Promise<T> {
  if (embedded) {
    const found = embedded.responses[path];
    if (found === undefined) throw new RequestFailed('not part of this export');
    return found as T;
  }
  const response = await fetch(path, { credentials: 'same-origin' });
  const body = (await response.json().catch(() => ({}))) as { error?: string; hint?: string };
  if (!response.ok) {
    throw new RequestFailed(
      `${body.error ?? response.statusText}${body.hint ? ` — ${body.hint}` : ''}`,
    );
  }
  return body as T;
}
