/**
 * The redactor as dist/status.cjs and the agents' bundles (dist/agent-<id>.cjs) reach it: the
 * build (scripts/build.mjs) points their imports of src/redact/redact.ts here. The scanner itself
 * lives once, in dist/redact.cjs, required the first time a text is redacted (bin/shim.cjs serves
 * a bundle's `require('./<name>.cjs')` through the code cache). A status whose session was folded
 * before (its cursor current) redacts nothing and loads none of it; before, status.cjs and
 * agent-claude.cjs each carried and started the whole scanner (docs/hot-path.md). The session's
 * memory stays here: it is what a warm call reads and keeps.
 * @module
 */
import type * as Redactor from './redact.ts';

export { SecretMemory } from '../redact/secret-memory.ts';

let loaded: typeof Redactor | undefined;

function redactor(): typeof Redactor {
  // A sibling bundle in dist/, left to run time by the build (this file is never run from sources).
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
  loaded ??= require('./redact.cjs') as typeof Redactor;
  return loaded;
}

export const redactTextSync: typeof Redactor.redactTextSync = (text, memory) =>
  redactor().redactTextSync(text, memory);

export const redactValueSync: typeof Redactor.redactValueSync = (value, memory) =>
  redactor().redactValueSync(value, memory);

export const forgetRemembered: typeof Redactor.forgetRemembered = (text, memory) =>
  redactor().forgetRemembered(text, memory);

export const forgetRememberedValue: typeof Redactor.forgetRememberedValue = (value, memory) =>
  redactor().forgetRememberedValue(value, memory);
