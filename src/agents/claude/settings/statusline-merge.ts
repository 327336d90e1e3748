/**
 * shim's statusline in the settings. With no statusline, shim's goes in; with one of the user's,
 * shim wraps it (`statusline --wrap <base64>` runs the original with the same stdin and prints
 * its output next to shim's line) and remembers the original so uninstall puts it back exactly.
 * Pure: objects in, objects out.
 * @module
 */
import { isJsonObject, setKey, type Json, type JsonObject } from './json-text.ts';
import { parseShimCommand, statusLineCommand, type ShimInvocation } from './shim-command.ts';

/** What `statusLine` was before shim took it over. */
export type StatusLineBefore = { existed: false } | { existed: true; value: Json };

export type StatusLineChange =
  | { kind: 'statusline-added'; command: string }
  | { kind: 'statusline-wrapped'; command: string; original: string }
  | { kind: 'statusline-replaced'; command: string; previous: string }
  | { kind: 'statusline-restored'; command: string }
  | { kind: 'statusline-removed'; command: string };

export type StatusLineState =
  | { kind: 'absent' }
  | { kind: 'shim'; command: string; wrapped: string | null }
  | { kind: 'foreign'; command: string }
  | { kind: 'unsupported'; reason: string };

export function readStatusLine(settings: JsonObject): StatusLineState {
  if (!Object.hasOwn(settings, 'statusLine')) return { kind: 'absent' };
  const value = settings.statusLine;
  if (!isJsonObject(value) || typeof value.command !== 'string') {
    return { kind: 'unsupported', reason: '"statusLine" is not a {"type":"command",…} object' };
  }
  if (value.type !== undefined && value.type !== 'command') {
    return { kind: 'unsupported', reason: `"statusLine" has type ${JSON.stringify(value.type)}` };
  }
  const parsed = parseShimCommand(value.command);
  if (parsed?.kind === 'statusline') {
    return { kind: 'shim', command: value.command, wrapped: parsed.wrapped };
  }
  return { kind: 'foreign', command: value.command };
}

function withStatusLine(settings: JsonObject, value: Json): JsonObject {
  const next = { ...settings };
  setKey(next, 'statusLine', value);
  return next;
}

export type AddStatusLineResult = {
  settings: JsonObject;
  change: StatusLineChange | null;
  /** Set when shim took the statusline over just now (to be remembered for uninstall). */
  before: StatusLineBefore | null;
  /** Why the statusline was left alone, when it was. */
  note: string | null;
};

export function addShimStatusLine(
  settings: JsonObject,
  invocation: ShimInvocation,
): AddStatusLineResult {
  const state = readStatusLine(settings);
  switch (state.kind) {
    case 'absent': {
      const command = statusLineCommand(invocation);
      return {
        settings: withStatusLine(settings, { type: 'command', command }),
        change: { kind: 'statusline-added', command },
        before: { existed: false },
        note: null,
      };
    }
    case 'foreign': {
      const current = settings.statusLine as JsonObject;
      const command = statusLineCommand(invocation, state.command);
      return {
        settings: withStatusLine(settings, { ...current, command }),
        change: { kind: 'statusline-wrapped', command, original: state.command },
        before: { existed: true, value: structuredClone(current) },
        note: null,
      };
    }
    case 'shim': {
      const command = statusLineCommand(invocation, state.wrapped ?? undefined);
      if (command === state.command) return { settings, change: null, before: null, note: null };
      const current = settings.statusLine as JsonObject;
      return {
        settings: withStatusLine(settings, { ...current, command }),
        change: { kind: 'statusline-replaced', command, previous: state.command },
        before: null,
        note: null,
      };
    }
    case 'unsupported':
      return {
        settings,
        change: null,
        before: null,
        note: `statusline left alone: ${state.reason}`,
      };
    default:
      return state satisfies never;
  }
}

/**
 * Takes shim's statusline out: the remembered original comes back as it was (or the command
 * shim wrapped, when nothing was remembered); a statusline shim added goes. A statusline that
 * is no longer shim's stays.
 */
export function removeShimStatusLine(
  settings: JsonObject,
  before: StatusLineBefore | null,
): { settings: JsonObject; change: StatusLineChange | null; note: string | null } {
  const state = readStatusLine(settings);
  if (state.kind !== 'shim') {
    const note =
      before !== null && before.existed
        ? 'the statusline was changed after shim was installed; left as it is'
        : null;
    return { settings, change: null, note };
  }
  const { wrapped } = state;
  if (before?.existed && (wrapped === null || commandOf(before.value) === wrapped)) {
    return {
      settings: withStatusLine(settings, structuredClone(before.value)),
      change: { kind: 'statusline-restored', command: commandOf(before.value) ?? '' },
      note: null,
    };
  }
  if (wrapped !== null) {
    return {
      settings: withStatusLine(settings, {
        ...(settings.statusLine as JsonObject),
        command: wrapped,
      }),
      change: { kind: 'statusline-restored', command: wrapped },
      note: null,
    };
  }
  const next = { ...settings };
  delete next.statusLine;
  return {
    settings: next,
    change: { kind: 'statusline-removed', command: state.command },
    note: null,
  };
}

function commandOf(value: Json): string | null {
  return isJsonObject(value) && typeof value.command === 'string' ? value.command : null;
}
