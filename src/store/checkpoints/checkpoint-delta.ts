/**
 * A checkpoint's state as what changed since an earlier checkpoint of its session (seed 003,
 * "incremental checkpoint"; docs/specification.md, "The store"): an RFC 6902 JSON patch
 * (`rfc6902`) over the six sections, gzipped. Exact or nothing: a patch is kept only when
 * applying it to the earlier state gives back the new state's very bytes, and every state is
 * named by a hash of those bytes, which a read checks after applying (checkpoint-chain.ts).
 * @module
 */
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { applyPatch, createPatch, type Operation, type Pointer } from 'rfc6902';
import type { Checkpoint, CheckpointDraft } from '../../core/checkpoint/checkpoint.ts';

/** The part of a checkpoint a delta carries: its six sections (the row's columns hold the rest). */
export type CheckpointState = Pick<
  Checkpoint,
  'conversationState' | 'taskState' | 'fileState' | 'toolState' | 'signals' | 'userPreferences'
>;

const SECTIONS = [
  'conversationState',
  'taskState',
  'fileState',
  'toolState',
  'signals',
  'userPreferences',
] as const satisfies ReadonlyArray<keyof CheckpointState>;

export function stateOf(checkpoint: CheckpointDraft | Checkpoint): CheckpointState {
  return {
    conversationState: checkpoint.conversationState,
    taskState: checkpoint.taskState,
    fileState: checkpoint.fileState,
    toolState: checkpoint.toolState,
    signals: checkpoint.signals,
    userPreferences: checkpoint.userPreferences,
  };
}

/** The bytes a whole row stores of each section (serialize.ts compresses the same strings). */
export function stateTexts(state: CheckpointState): string[] {
  return SECTIONS.map((s) => JSON.stringify(state[s]));
}

/** A state's name: sha-256 (128 bits, hex) of its sections' bytes. Equal names, equal bytes. */
export function stateHash(state: CheckpointState, texts = stateTexts(state)): string {
  const hash = createHash('sha256');
  for (const text of texts) hash.update(text).update('\n');
  return hash.digest('hex').slice(0, 32);
}

/** A value's identity for list comparison: its JSON text (cached per object). */
function keyer(): (v: unknown) => string {
  const texts = new WeakMap<object, string>();
  return (v) => {
    if (typeof v !== 'object' || v === null) return `${typeof v}:${String(v)}`;
    let t = texts.get(v);
    if (t === undefined) {
      t = JSON.stringify(v);
      texts.set(v, t);
    }
    return t;
  };
}

/**
 * The operations turning list `a` into `b` at `ptr`: whole elements kept (the longest common
 * subsequence of their JSON texts), removed or added. The rolling lists — recent tool calls and
 * messages — shift by a few entries between checkpoints: this costs their new entries, where
 * rfc6902's own list diff compares every pair of elements deeply (~10 ms a checkpoint).
 */
function diffList(a: unknown[], b: unknown[], ptr: Pointer, key: (v: unknown) => string) {
  const ka = a.map(key);
  const kb = b.map(key);
  let start = 0;
  while (start < ka.length && start < kb.length && ka[start] === kb[start]) start++;
  let endA = ka.length;
  let endB = kb.length;
  while (endA > start && endB > start && ka[endA - 1] === kb[endB - 1]) {
    endA--;
    endB--;
  }
  const n = endA - start;
  const m = endB - start;
  // Beyond what a checkpoint's bounded lists hold: the list replaced whole, no quadratic table.
  if (n * m > 250_000) return [{ op: 'replace', path: ptr.toString(), value: b } as Operation];
  // lcs[i * (m + 1) + j]: the common subsequence of a[start + i..endA) and b[start + j..endB).
  const lcs = new Uint16Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i * (m + 1) + j] =
        ka[start + i] === kb[start + j]
          ? lcs[(i + 1) * (m + 1) + j + 1]! + 1
          : Math.max(lcs[(i + 1) * (m + 1) + j]!, lcs[i * (m + 1) + j + 1]!);
  const ops: Operation[] = [];
  let at = start;
  for (let i = 0, j = 0; i < n || j < m;) {
    if (i < n && j < m && ka[start + i] === kb[start + j]) {
      at++;
      i++;
      j++;
    } else if (j < m && (i === n || lcs[i * (m + 1) + j + 1]! >= lcs[(i + 1) * (m + 1) + j]!)) {
      ops.push({ op: 'add', path: ptr.add(String(at)).toString(), value: b[start + j] });
      at++;
      j++;
    } else {
      ops.push({ op: 'remove', path: ptr.add(String(at)).toString() });
      i++;
    }
  }
  return ops;
}

/** The patch from `base` to `next` (objects key by key, lists element by element). */
export function diffStates(base: CheckpointState, next: CheckpointState): Operation[] {
  const key = keyer();
  return createPatch(base, next, (a: unknown, b: unknown, ptr: Pointer) =>
    Array.isArray(a) && Array.isArray(b) ? diffList(a, b, ptr, key) : undefined,
  );
}

/** Applies `ops` to `state` in place (a state just decoded is nobody else's); throws on a miss. */
export function applyDelta(state: CheckpointState, ops: readonly Operation[]): CheckpointState {
  const errors = applyPatch(state, [...ops]);
  const failed = errors.find((e) => e !== null);
  if (failed) throw new Error(`the delta does not apply: ${failed.name} ${failed.message}`);
  return state;
}

/** Whether `a` and `b` store the very same bytes. */
export function sameState(a: CheckpointState, b: CheckpointState): boolean {
  const x = stateTexts(a);
  const y = stateTexts(b);
  return x.every((t, i) => t === y[i]);
}

/**
 * The gzipped patch from `base` to `next` (whose section texts are `nextTexts`), or null when
 * applying it would not give those bytes back (a key moved in an object, say): such a
 * checkpoint is stored whole.
 */
export function encodeDelta(
  base: CheckpointState,
  next: CheckpointState,
  nextTexts = stateTexts(next),
): Buffer | null {
  const ops = diffStates(base, next);
  const json = JSON.stringify(ops);
  let rebuilt: string[];
  try {
    rebuilt = stateTexts(applyDelta(structuredClone(base), JSON.parse(json) as Operation[]));
  } catch {
    return null;
  }
  if (!rebuilt.every((t, i) => t === nextTexts[i])) return null;
  return gzipSync(Buffer.from(json, 'utf8'), { level: 9 });
}

export function decodeDelta(data: Uint8Array): Operation[] {
  const ops = JSON.parse(gunzipSync(data).toString('utf8')) as unknown;
  if (!Array.isArray(ops)) throw new Error('a checkpoint delta is not a list of operations');
  return ops as Operation[];
}
