/**
 * The first bytes of a gzipped log, inflated (a cut-off head still inflates). node:zlib is
 * loaded the first time a gzipped log is met, not with the module: it loads node:stream, ~3.5 ms
 * of every `shim status` that never sees an archive (docs/hot-path.md).
 * @module
 */
import { createRequire } from 'node:module';
import type * as Zlib from 'node:zlib';

let zlib: typeof Zlib | undefined;

/** `head` inflated as far as it goes; throws when it is not gzip. */
export function gunzipHead(head: Buffer): Buffer {
  // A built-in resolves from any base path, so this works alike in the ES-module CLI, the
  // CommonJS bundles and under tsx (no import.meta.url in the one, no require in the others).
  zlib ??= createRequire(process.execPath)('node:zlib') as typeof Zlib;
  return zlib.gunzipSync(head, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
}
