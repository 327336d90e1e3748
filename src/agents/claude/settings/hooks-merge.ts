/**
 * Adding shim's hooks to a settings object and taking them out again, leaving everything else
 * where it was: other tools' groups in the same event keep their order, and shim's own entries
 * are replaced in place (a new bin path never adds a duplicate). Pure: objects in, objects out.
 * @module
 */
import { AppError } from '../../../core/errors.ts';
import { isJsonObject, setKey, type Json, type JsonObject } from './json-text.ts';
import { isShimHookHandler } from './shim-command.ts';

/** One of shim's handlers as it should be in the file. */
export type DesiredHook = {
  event: string;
  matcher?: string;
  command: string;
  timeout: number;
};

export type HookChange =
  | { kind: 'hook-added'; event: string; matcher?: string; command: string; timeout: number }
  | {
      kind: 'hook-replaced';
      event: string;
      matcher?: string;
      command: string;
      timeout: number;
      previous: string[];
    }
  | { kind: 'hook-removed'; event: string; commands: string[] };

/** What shim created (so uninstall removes exactly that, and no more). */
export type CreatedContainers = { hooksKey: boolean; events: string[] };

function desiredGroup(hook: DesiredHook): JsonObject {
  const handler: JsonObject = { type: 'command', command: hook.command, timeout: hook.timeout };
  return hook.matcher === undefined
    ? { hooks: [handler] }
    : { matcher: hook.matcher, hooks: [handler] };
}

function commandOf(handler: Json): string {
  return isJsonObject(handler) && typeof handler.command === 'string' ? handler.command : '';
}

/** The `hooks` object of a settings object (a copy), refusing shapes shim cannot merge into. */
function readHooks(settings: JsonObject, path: string): JsonObject | undefined {
  const hooks = settings.hooks;
  if (hooks === undefined) return undefined;
  if (!isJsonObject(hooks)) {
    throw new AppError(
      'CONFIG_INVALID',
      `"hooks" in ${path} is not an object; shim did not touch the file`,
      'Claude Code expects {"hooks": {"EventName": [ … ]}}; fix it, then run the command again',
    );
  }
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) {
      throw new AppError(
        'CONFIG_INVALID',
        `"hooks.${event}" in ${path} is not a list; shim did not touch the file`,
        'each event holds a list of {"matcher", "hooks": [ … ]} groups; fix it, then run again',
      );
    }
  }
  return structuredClone(hooks);
}

type Stripped = {
  /** The event's groups with shim's handlers taken out; `null` marks a group left empty by it. */
  groups: Array<Json | null>;
  removed: string[];
};

/** Takes shim's handlers out of one event's groups. A group that held only shim's becomes null. */
function stripShim(groups: Json[]): Stripped {
  const removed: string[] = [];
  const out = groups.map((group): Json | null => {
    if (!isJsonObject(group) || !Array.isArray(group.hooks)) return group;
    const handlers = group.hooks;
    const kept = handlers.filter((h) => !isShimHookHandler(h));
    if (kept.length === handlers.length) return group;
    removed.push(...handlers.filter((h) => isShimHookHandler(h)).map(commandOf));
    if (kept.length === 0) return null;
    const copy = { ...group };
    setKey(copy, 'hooks', kept);
    return copy;
  });
  return { groups: out, removed };
}

/** The JSON text with keys sorted at every level, so key order does not matter. */
function canonical(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (!isJsonObject(value)) return JSON.stringify(value);
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k]!)}`).join(',')}}`;
}

/**
 * Puts `desired` into the settings. Per event: when shim's group is already exactly there,
 * nothing changes; otherwise shim's old handlers go and the new group takes the place of the
 * first group that held only shim's (or goes last). Shim handlers in events no longer wanted
 * are removed.
 */
export function addShimHooks(
  settings: JsonObject,
  desired: readonly DesiredHook[],
  path: string,
): { settings: JsonObject; changes: HookChange[]; created: CreatedContainers } {
  const existing = readHooks(settings, path);
  const hooks: JsonObject = existing ?? {};
  const changes: HookChange[] = [];
  const createdEvents: string[] = [];
  const wantedByEvent = new Map(desired.map((d) => [d.event, d]));

  // shim's events in its own order, then any other event that may hold an old shim entry.
  const events = desired.map((d) => d.event);
  for (const event of Object.keys(hooks)) if (!events.includes(event)) events.push(event);

  for (const event of events) {
    const groups = (hooks[event] as Json[] | undefined) ?? [];
    const wanted = wantedByEvent.get(event);
    const { groups: stripped, removed } = stripShim(groups);
    if (!wanted) {
      if (removed.length === 0) continue;
      setKey(
        hooks,
        event,
        stripped.filter((g): g is Json => g !== null),
      );
      changes.push({ kind: 'hook-removed', event, commands: removed });
      continue;
    }
    const group = desiredGroup(wanted);
    const wantedText = canonical(group);
    if (removed.length === 1 && groups.some((g) => canonical(g) === wantedText)) continue;

    const slot = stripped.indexOf(null);
    const next: Json[] = [];
    stripped.forEach((g, i) => {
      if (i === slot) next.push(group);
      else if (g !== null) next.push(g);
    });
    if (slot < 0) next.push(group);
    if (!Object.hasOwn(hooks, event)) createdEvents.push(event);
    setKey(hooks, event, next);
    const base = {
      event,
      ...(wanted.matcher === undefined ? {} : { matcher: wanted.matcher }),
      command: wanted.command,
      timeout: wanted.timeout,
    };
    changes.push(
      removed.length === 0
        ? { kind: 'hook-added', ...base }
        : { kind: 'hook-replaced', ...base, previous: removed },
    );
  }

  if (changes.length === 0) {
    return { settings, changes, created: { hooksKey: false, events: [] } };
  }
  const next = { ...settings };
  setKey(next, 'hooks', hooks);
  return {
    settings: next,
    changes,
    created: { hooksKey: existing === undefined, events: createdEvents },
  };
}

/**
 * Takes every shim handler out. Groups left empty by that go; an event list or the `hooks`
 * object left empty goes too when shim created it — or, when nobody knows (`created` is null),
 * when it held nothing but shim's entries.
 */
export function removeShimHooks(
  settings: JsonObject,
  created: CreatedContainers | null,
  path: string,
): { settings: JsonObject; changes: HookChange[] } {
  const hooks = readHooks(settings, path);
  if (hooks === undefined) return { settings, changes: [] };
  const changes: HookChange[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    const { groups: stripped, removed } = stripShim(groups as Json[]);
    if (removed.length === 0) continue;
    changes.push({ kind: 'hook-removed', event, commands: removed });
    const kept = stripped.filter((g): g is Json => g !== null);
    const shimMadeIt = created ? created.events.includes(event) : true;
    if (kept.length === 0 && shimMadeIt) delete hooks[event];
    else setKey(hooks, event, kept);
  }
  if (changes.length === 0) return { settings, changes };
  const next = { ...settings };
  const shimMadeHooks = created ? created.hooksKey : true;
  if (Object.keys(hooks).length === 0 && shimMadeHooks) delete next.hooks;
  else setKey(next, 'hooks', hooks);
  return { settings: next, changes };
}

/** Every shim hook command in the settings, by event (for diagnosis). */
export function findShimHooks(
  settings: JsonObject,
): Array<{ event: string; matcher: string | undefined; command: string }> {
  const found: Array<{ event: string; matcher: string | undefined; command: string }> = [];
  const hooks = settings.hooks;
  if (!isJsonObject(hooks)) return found;
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      if (!isJsonObject(group) || !Array.isArray(group.hooks)) continue;
      const matcher = typeof group.matcher === 'string' ? group.matcher : undefined;
      for (const handler of group.hooks) {
        if (isShimHookHandler(handler)) found.push({ event, matcher, command: commandOf(handler) });
      }
    }
  }
  return found;
}
