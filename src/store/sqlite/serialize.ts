/** Checkpoint sections (docs/specification.md, "The store") as gzip (level 9) JSON, with their sizes recorded. */
import { gunzipSync, gzipSync } from 'node:zlib';

export type Compressed = { data: Buffer; uncompressed: number };

export function compressJson(value: unknown): Compressed {
  const json = Buffer.from(JSON.stringify(value), 'utf8');
  return { data: gzipSync(json, { level: 9 }), uncompressed: json.length };
}

export function decompressJson<T>(data: Uint8Array | string): T {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'base64') : data;
  return JSON.parse(gunzipSync(bytes).toString('utf8')) as T;
}
