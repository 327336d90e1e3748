// A second reporter beside `spec` for scripts/test.mjs: what a group's run adds up to, as one
// JSON document at the end (Node's own summary counts, and each file's wall time and verdict),
// so the runner can add up the groups and name the slowest files. Files are named by their
// sources (a compiled test file by the .ts it came from: scripts/compile-tests.mjs).
import { join, resolve } from 'node:path';
import { eventOfSource } from './compile-tests.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const SHARED_ENTRY = /[\\/]_shared[\\/][^\\/]+\.mjs$/;

/** @param {AsyncIterable<{ type: string, data: any }>} source */
export default async function* summarize(source) {
  const counts = {};
  const files = {};
  for await (const event of source) {
    // A shared process (scripts/test-share.mjs) is not a file: each of its files is a suite
    // at nesting 0 named by the file's path, declared in the process's entry.
    const raw = event.data;
    if (raw?.nesting === 0 && SHARED_ENTRY.test(String(raw.file)) && raw.name === raw.file)
      continue;
    const { type, data } = raw?.nesting === 0 ? eventOfSource(event) : event;
    // A file is a test of its own at nesting 0, named by its path, complete once its process
    // has exited: its duration is the file's wall time, startup and any lingering included.
    if (
      (type === 'test:pass' || type === 'test:fail') &&
      data.nesting === 0 &&
      String(data.file).startsWith('shim-test-shared:') &&
      data.name.endsWith('.test.ts')
    ) {
      files[join(ROOT, data.name)] = {
        ms: data.details?.duration_ms ?? null,
        ok: type === 'test:pass',
      };
    } else if (
      (type === 'test:pass' || type === 'test:fail') &&
      data.nesting === 0 &&
      data.file &&
      data.name === data.file
    ) {
      files[data.file] = { ms: data.details?.duration_ms ?? null, ok: type === 'test:pass' };
    } else if (type === 'test:complete' && data.nesting === 0 && data.name === data.file) {
      files[data.file] ??= { ms: data.details?.duration_ms ?? null, ok: data.details?.passed };
    } else if (type === 'test:diagnostic' && data.nesting === 0) {
      // The run's own summary: "tests 12", "pass 11", "fail 1", "duration_ms 345.6" …
      const match = /^(tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) ([\d.]+)$/.exec(
        String(data.message),
      );
      if (match) counts[match[1]] = Number(match[2]);
    }
  }
  yield `${JSON.stringify({ counts, files })}\n`;
}
