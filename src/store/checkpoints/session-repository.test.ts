import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { openTempStore, type TempStore } from '../../../test/helpers/store.ts';

const SESSION = '4f8c1176-7025-4530-a860-c6fc4c63a150';
const at = (minute: number) => new Date(Date.UTC(2026, 1, 12, 4, minute)).toISOString();

let store: TempStore;
beforeEach(() => {
  store = openTempStore();
});
afterEach(() => store.dispose());

describe('SessionRepository.touch', () => {
  test('creates the session on first sight, with what is known', () => {
    assert.equal(store.sessions.get(SESSION), null);
    store.sessions.touch({ agent: 'claude', sessionId: SESSION, cwd: '/home/dev/shim' }, at(1));
    assert.deepEqual(store.sessions.get(SESSION), {
      sessionId: SESSION,
      transcriptPath: null,
      cwd: '/home/dev/shim',
      startedAt: at(1),
      lastSeenAt: at(1),
      endedAt: null,
      endReason: null,
      cliVersion: null,
      model: null,
      agent: 'claude',
    });
  });

  test('later sightings move last_seen_at, keep started_at and known fields, fill in new ones', () => {
    store.sessions.touch(
      {
        agent: 'claude',
        sessionId: SESSION,
        transcriptPath: '/t/a.jsonl',
        cwd: '/home/dev/shim',
        cliVersion: '2.1.38',
        model: 'claude-opus-4-6',
      },
      at(1),
    );
    // A hook that knows nothing but the id must not erase what is known (COALESCE).
    store.sessions.touch({ agent: 'claude', sessionId: SESSION }, at(5));
    store.sessions.touch(
      { agent: 'claude', sessionId: SESSION, transcriptPath: null, cwd: undefined, model: null },
      at(7),
    );
    assert.deepEqual(store.sessions.get(SESSION), {
      sessionId: SESSION,
      transcriptPath: '/t/a.jsonl',
      cwd: '/home/dev/shim',
      startedAt: at(1),
      lastSeenAt: at(7),
      endedAt: null,
      endReason: null,
      cliVersion: '2.1.38',
      model: 'claude-opus-4-6',
      agent: 'claude',
    });
    // New values replace old ones.
    store.sessions.touch(
      { agent: 'claude', sessionId: SESSION, cliVersion: '2.1.39', model: 'claude-sonnet-4-5' },
      at(9),
    );
    const record = store.sessions.get(SESSION);
    assert.equal(record?.cliVersion, '2.1.39');
    assert.equal(record?.model, 'claude-sonnet-4-5');
    assert.equal(record?.transcriptPath, '/t/a.jsonl');
    assert.equal(record?.startedAt, at(1));
    assert.equal(record?.lastSeenAt, at(9));
  });

  test('sessions are independent', () => {
    store.sessions.touch({ agent: 'claude', sessionId: 'a', cwd: '/a' }, at(1));
    store.sessions.touch({ agent: 'claude', sessionId: 'b', cwd: '/b' }, at(2));
    assert.equal(store.sessions.get('a')?.cwd, '/a');
    assert.equal(store.sessions.get('b')?.cwd, '/b');
    assert.equal(store.sessions.get('a')?.lastSeenAt, at(1));
  });
});

describe('SessionRepository.end', () => {
  test('records a clean end and keeps everything else', () => {
    store.sessions.touch(
      {
        agent: 'claude',
        sessionId: SESSION,
        transcriptPath: '/t/a.jsonl',
        cwd: '/w',
        cliVersion: '2.1.38',
      },
      at(1),
    );
    store.sessions.end(SESSION, 'claude', 'logout', at(30));
    assert.deepEqual(store.sessions.get(SESSION), {
      sessionId: SESSION,
      transcriptPath: '/t/a.jsonl',
      cwd: '/w',
      startedAt: at(1),
      lastSeenAt: at(30),
      endedAt: at(30),
      endReason: 'logout',
      cliVersion: '2.1.38',
      model: null,
      agent: 'claude',
    });
  });

  test('ending an unknown session creates it', () => {
    store.sessions.end(SESSION, 'claude', 'clear', at(3));
    const record = store.sessions.get(SESSION);
    assert.equal(record?.startedAt, at(3));
    assert.equal(record?.endedAt, at(3));
    assert.equal(record?.endReason, 'clear');
    assert.equal(record?.cwd, null);
  });

  test("a session first seen at its end, or after a compaction, is its agent's", () => {
    store.sessions.end('gem-1', 'gemini', 'exit', at(3));
    assert.equal(store.sessions.get('gem-1')?.agent, 'gemini');
    store.sessions.touch({ sessionId: 'codex-1', agent: 'codex' }, at(4));
    store.sessions.touch({ sessionId: 'codex-1', agent: 'codex', cwd: '/w' }, at(5));
    assert.equal(store.sessions.get('codex-1')?.agent, 'codex');
  });

  test('a later end replaces the earlier one; a later touch keeps the end on record', () => {
    store.sessions.touch({ agent: 'claude', sessionId: SESSION, cwd: '/w' }, at(1));
    store.sessions.end(SESSION, 'claude', 'clear', at(2));
    store.sessions.end(SESSION, 'claude', 'logout', at(4));
    assert.equal(store.sessions.get(SESSION)?.endReason, 'logout');
    assert.equal(store.sessions.get(SESSION)?.endedAt, at(4));
    // Seen again (e.g. resumed): last_seen_at moves on; readers compare it with ended_at.
    store.sessions.touch({ agent: 'claude', sessionId: SESSION }, at(9));
    const record = store.sessions.get(SESSION);
    assert.equal(record?.lastSeenAt, at(9));
    assert.equal(record?.endedAt, at(4));
    assert.equal(record?.cwd, '/w');
    assert.equal(store.db.isTransaction, false);
  });
});
