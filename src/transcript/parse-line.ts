/**
 * One transcript line → JSON value, surviving what crashes leave behind: NUL runs from a
 * pre-allocated block, and a torn line whose tail is glued to the next complete entry.
 * @module
 */

export type ParsedLine =
  | { ok: true; value: unknown; hadNul: boolean; recovered: boolean }
  | { ok: false; hadNul: boolean; blank: boolean };

/** Where a new entry can start inside a torn line: Claude Code writes `parentUuid` first. */
const LIKELY_START = /\{"parentUuid":/g;
const POSSIBLE_START = /\{"(type|uuid|sessionId|isSidechain|leafUuid|logicalParentUuid)"/g;
const MAX_RECOVERY_ATTEMPTS = 8;

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function recoverWith(pattern: RegExp, text: string): unknown {
  pattern.lastIndex = 1;
  let attempts = 0;
  for (let m = pattern.exec(text); m && attempts < MAX_RECOVERY_ATTEMPTS; m = pattern.exec(text)) {
    attempts++;
    const parsed = tryParse(text.slice(m.index));
    if (parsed.ok) return parsed.value;
  }
  return undefined;
}

/** The complete entry glued after a torn one: likely starts first, then other known keys. */
function recoverTail(text: string): unknown {
  return recoverWith(LIKELY_START, text) ?? recoverWith(POSSIBLE_START, text);
}

export function parseLine(text: string): ParsedLine {
  if (text.length === 0) return { ok: false, hadNul: false, blank: true };
  const first = tryParse(text);
  if (first.ok) return { ok: true, value: first.value, hadNul: false, recovered: false };
  let candidate = text;
  const hadNul = text.includes('\0');
  if (hadNul) {
    candidate = text.replace(/\0+/g, '');
    if (candidate.trim().length === 0) return { ok: false, hadNul, blank: true };
    const again = tryParse(candidate);
    if (again.ok) return { ok: true, value: again.value, hadNul, recovered: false };
  } else if (text.trim().length === 0) {
    return { ok: false, hadNul, blank: true };
  }
  const tail = recoverTail(candidate);
  if (tail !== undefined) return { ok: true, value: tail, hadNul, recovered: true };
  return { ok: false, hadNul, blank: false };
}
