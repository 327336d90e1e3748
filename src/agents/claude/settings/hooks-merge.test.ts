import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AppError } from '../../../core/errors.ts';
import { SHIM_HOOKS } from './hook-spec.ts';
import { addShimHooks, findShimHooks, removeShimHooks } from './hooks-merge.ts';
import { desiredHooks } from './install.ts';
import { parseSettingsText, type Json, type JsonObject } from './json-text.ts';
import { FOREIGN_HOOKS, REALISTIC_SETTINGS } from './settings-fixture.test-helper.ts';

const NOW = { node: '/usr/bin/node', bin: '/opt/shim/dist/shim.js' };
const OLD = { node: '/old/node', bin: '/old place/dist/shim.js' };
const PATH = 'settings.json';

function realistic(): JsonObject {
  return parseSettingsText(REALISTIC_SETTINGS, PATH);
}

/** Every handler command per event, in file order. */
function commands(settings: JsonObject): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [event, groups] of Object.entries(settings.hooks as Record<string, Json[]>)) {
    out[event] = groups.flatMap((g) =>
      ((g as { hooks: Array<{ command: string }> }).hooks ?? []).map((h) => h.command),
    );
  }
  return out;
}

function foreignOnly(settings: JsonObject): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [event, list] of Object.entries(commands(settings))) {
    const foreign = list.filter((c) => !c.includes('shim.js'));
    if (foreign.length) out[event] = foreign;
  }
  return out;
}

describe('addShimHooks', () => {
  test('adds one group per event and keeps every foreign hook and setting, in order', () => {
    const before = realistic();
    const { settings, changes, created } = addShimHooks(before, desiredHooks(NOW), PATH);
    assert.deepEqual(foreignOnly(settings), FOREIGN_HOOKS);
    for (const key of Object.keys(before)) {
      if (key !== 'hooks') assert.deepEqual(settings[key], before[key], key);
    }
    assert.deepEqual(Object.keys(settings), Object.keys(before));
    // shim's group goes after the user's own in events they share
    assert.deepEqual(commands(settings).Stop, [
      'afplay /System/Library/Sounds/Glass.aiff',
      '/usr/bin/node /opt/shim/dist/shim.js hook Stop',
    ]);
    assert.deepEqual(
      changes.map((c) => c.kind + ':' + c.event),
      SHIM_HOOKS.map((s) => 'hook-added:' + s.event),
    );
    const byEvent = (a: [string, unknown], b: [string, unknown]) => a[0].localeCompare(b[0]);
    assert.deepEqual(
      findShimHooks(settings)
        .map((h): [string, unknown] => [h.event, h.matcher])
        .sort(byEvent),
      SHIM_HOOKS.map((s): [string, unknown] => [s.event, s.matcher]).sort(byEvent),
    );
    assert.equal(created.hooksKey, false);
    assert.deepEqual(
      created.events,
      SHIM_HOOKS.map((s) => s.event).filter((e) => !(e in FOREIGN_HOOKS)),
    );
    assert.deepEqual(before, realistic(), 'the input is not modified');
  });

  test('is idempotent: a second run changes nothing', () => {
    const once = addShimHooks(realistic(), desiredHooks(NOW), PATH).settings;
    const twice = addShimHooks(once, desiredHooks(NOW), PATH);
    assert.deepEqual(twice.changes, []);
    assert.equal(twice.settings, once);
  });

  test('key order inside shim’s own group does not matter', () => {
    const once = addShimHooks({}, desiredHooks(NOW), PATH).settings;
    const hooks = once.hooks as Record<string, Array<{ matcher?: string; hooks: Json[] }>>;
    const group = hooks.SessionStart![0]!;
    hooks.SessionStart![0] = { hooks: group.hooks, matcher: group.matcher! };
    assert.deepEqual(addShimHooks(once, desiredHooks(NOW), PATH).changes, []);
  });

  test('an install from another path replaces shim’s entries in place, no duplicates', () => {
    const old = addShimHooks(realistic(), desiredHooks(OLD), PATH).settings;
    // the user adds their own hook after shim's in an event
    (old.hooks as Record<string, Json[]>).SessionEnd!.push({
      hooks: [{ type: 'command', command: 'backup-notes.sh' }],
    });
    const { settings, changes } = addShimHooks(old, desiredHooks(NOW), PATH);
    assert.equal(findShimHooks(settings).length, SHIM_HOOKS.length);
    assert.ok(findShimHooks(settings).every((h) => h.command.startsWith('/usr/bin/node /opt/')));
    assert.deepEqual(commands(settings).SessionEnd, [
      '/usr/bin/node /opt/shim/dist/shim.js hook SessionEnd',
      'backup-notes.sh',
    ]);
    assert.ok(changes.every((c) => c.kind === 'hook-replaced'));
    assert.deepEqual(changes[0]!.kind === 'hook-replaced' && changes[0]!.previous, [
      '/old/node "/old place/dist/shim.js" hook SessionStart',
    ]);
    assert.deepEqual(foreignOnly(settings), { ...FOREIGN_HOOKS, SessionEnd: ['backup-notes.sh'] });
  });

  test('takes shim out of groups it shares with others and out of events it no longer uses', () => {
    const settings: JsonObject = {
      hooks: {
        Stop: [
          {
            hooks: [
              { type: 'command', command: 'say done' },
              { type: 'command', command: 'node /old/shim.js hook Stop' },
            ],
          },
        ],
        SubagentStop: [
          { hooks: [{ type: 'command', command: 'node /old/shim.js hook SubagentStop' }] },
        ],
      },
    };
    const result = addShimHooks(settings, desiredHooks(NOW), PATH);
    const after = commands(result.settings);
    assert.deepEqual(after.Stop, ['say done', '/usr/bin/node /opt/shim/dist/shim.js hook Stop']);
    assert.deepEqual(after.SubagentStop, []);
    assert.ok(result.changes.some((c) => c.kind === 'hook-removed' && c.event === 'SubagentStop'));
  });

  test('refuses hooks it cannot merge into', () => {
    for (const settings of [{ hooks: [] }, { hooks: 'x' }, { hooks: { Stop: {} } }]) {
      assert.throws(
        () => addShimHooks(settings as JsonObject, desiredHooks(NOW), PATH),
        (e: unknown) => e instanceof AppError && e.code === 'CONFIG_INVALID',
      );
    }
  });
});

describe('removeShimHooks', () => {
  test('takes out exactly shim’s entries and the containers shim created', () => {
    const installed = addShimHooks(realistic(), desiredHooks(NOW), PATH);
    const { settings, changes } = removeShimHooks(installed.settings, installed.created, PATH);
    assert.deepEqual(settings, realistic());
    assert.equal(changes.length, SHIM_HOOKS.length);
  });

  test('creates and removes the hooks object of a file that had none', () => {
    const installed = addShimHooks({ model: 'opus' }, desiredHooks(NOW), PATH);
    assert.equal(installed.created.hooksKey, true);
    assert.deepEqual(removeShimHooks(installed.settings, installed.created, PATH).settings, {
      model: 'opus',
    });
  });

  test('keeps an empty event list the user had before', () => {
    const installed = addShimHooks({ hooks: { Stop: [] } }, desiredHooks(NOW), PATH);
    assert.ok(!installed.created.events.includes('Stop'));
    assert.deepEqual(removeShimHooks(installed.settings, installed.created, PATH).settings, {
      hooks: { Stop: [] },
    });
  });

  test('without a record, drops only what held nothing but shim', () => {
    const settings: JsonObject = {
      hooks: {
        Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }],
        PreCompact: [
          { matcher: 'auto', hooks: [{ type: 'command', command: 'x/shim.js hook PreCompact' }] },
        ],
        Notification: [],
      },
    };
    assert.deepEqual(removeShimHooks(settings, null, PATH).settings, {
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }], Notification: [] },
    });
    assert.deepEqual(removeShimHooks({ a: 1 }, null, PATH), { settings: { a: 1 }, changes: [] });
  });
});
