/**
 * A checkpoint from another machine, as this machine's clone of the same repository sees it:
 * every path under the other clone's root is rewritten to this clone's (docs/team.md, "Paths"),
 * and the other machine's transcript, which is not here, is dropped. Pure.
 * @module
 */
import type { Checkpoint } from '../checkpoint/checkpoint.ts';

/** `text` with `from` replaced by `to` as a whole path or a path prefix (`from/…`), not `from2`. */
export function replaceRoot(text: string, from: string, to: string): string {
  if (from === '' || !text.includes(from)) return text;
  // A path ends where the next character is not part of a name: `/`, a quote, a space…
  return text.replace(
    new RegExp(`${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=$|[/\\s"'\`:,;)\\]}])`, 'g'),
    to,
  );
}

/** Replaces `from` as a whole path or a path prefix (`from/…`) in every string of `value`. */
function rebaseValue(value: unknown, from: string, to: string): unknown {
  if (typeof value === 'string') return replaceRoot(value, from, to);
  if (Array.isArray(value)) return value.map((v) => rebaseValue(v, from, to));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rebaseValue(v, from, to)]));
  return value;
}

/**
 * `checkpoint` with its clone root (`fileState.repoRoot`, else `source.cwd`) replaced by
 * `localRoot` everywhere; unchanged when the roots are the same or the checkpoint names none.
 */
export function rebaseCheckpoint(checkpoint: Checkpoint, localRoot: string): Checkpoint {
  const from = (checkpoint.fileState.repoRoot ?? checkpoint.source.cwd)?.replace(/\/+$/, '');
  const to = localRoot.replace(/\/+$/, '');
  const rebased =
    !from || from === to || from === ''
      ? checkpoint
      : (rebaseValue(checkpoint, from, to) as Checkpoint);
  return { ...rebased, source: { ...rebased.source, transcriptPath: null } };
}
