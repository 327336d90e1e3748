import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { testAgents } from '../../test/helpers/agents.ts';
import { parseLoopOptions, readSeedContextSettings, readStoredLoopOptions } from './options.ts';

/** A directory with its own agents' homes and a PATH holding an executable of each agent's name. */
function place(): { cwd: string; env: Record<string, string> } {
  const root = mkdtempSync(join(tmpdir(), 'shim-loop-agent-'));
  const bin = join(root, 'bin');
  const cwd = join(root, 'project');
  mkdirSync(bin);
  mkdirSync(cwd);
  for (const name of ['claude', 'codex', 'gemini']) {
    writeFileSync(join(bin, name), '#!/bin/sh\n');
    chmodSync(join(bin, name), 0o755);
  }
  return {
    cwd,
    env: {
      PATH: bin,
      HOME: root,
      CLAUDE_CONFIG_DIR: join(root, 'claude'),
      CODEX_HOME: join(root, 'codex'),
      GEMINI_CLI_HOME: join(root, 'gemini'),
    },
  };
}

describe('parseLoopOptions: the agent a run starts with (no default agent)', () => {
  const start = (raw: Record<string, string>, at: ReturnType<typeof place>) =>
    parseLoopOptions({ goal: 'g', ...raw }, [], at.env, at.cwd, testAgents);

  test('nothing says which agent: refused with the flag to pass, never Claude Code by default', async () => {
    const at = place();
    await assert.rejects(start({}, at), (error: Error & { hint?: string }) => {
      assert.match(error.message, /^shim loop needs --agent: no session of .* says which agent/);
      assert.match(error.hint ?? '', /--agent claude\|codex\|gemini/);
      return true;
    });
  });

  test('--agent, else the one agent whose executable is named, else the newest session here', async () => {
    const at = place();
    assert.equal((await start({ agent: 'gemini' }, at)).agent, 'gemini');
    assert.equal((await start({ codexBin: join(at.env.PATH!, 'codex') }, at)).agent, 'codex');
    const named = { ...at, env: { ...at.env, SHIM_GEMINI_BIN: join(at.env.PATH!, 'gemini') } };
    assert.equal((await start({}, named)).agent, 'gemini');
    // A Codex session of this directory says Codex works here.
    const day = join(at.env.CODEX_HOME!, 'sessions', '2026', '11', '28');
    mkdirSync(day, { recursive: true });
    writeFileSync(
      join(day, 'rollout-2026-11-28T10-00-00-01a2140b-6f3a-79f0-b6fd-d2a321939c72.jsonl'),
      `${JSON.stringify({ timestamp: '2026-11-28T10:00:00.000Z', type: 'session_meta', payload: { id: '01a2140b-6f3a-79f0-b6fd-d2a321939c72', cwd: at.cwd } })}\n`,
    );
    assert.equal((await start({}, at)).agent, 'codex');
    // Not when that agent is the fallback: then the run must be told.
    await assert.rejects(start({ fallbackAgent: 'codex' }, at), /shim loop needs --agent/);
  });
});

describe('readStoredLoopOptions', () => {
  test('a run stored before --agent (one claudeBin) resumes as a Claude Code run', () => {
    const options = readStoredLoopOptions('r1', { goal: 'g', claudeBin: '/usr/bin/claude' });
    assert.equal(options.agent, 'claude');
    assert.equal(options.fallbackAgent, null);
    assert.deepEqual(options.bins, { claude: '/usr/bin/claude' });
    assert.deepEqual(options.fallbackArgs, []);
  });

  test('a run with its agents and binaries keeps them; one without any binary cannot resume', () => {
    const options = readStoredLoopOptions('r2', {
      goal: 'g',
      agent: 'claude',
      fallbackAgent: 'codex',
      bins: { claude: '/c', codex: '/x' },
      fallbackArgs: ['--full-auto'],
    });
    assert.deepEqual(
      [options.agent, options.fallbackAgent, options.bins, options.fallbackArgs],
      ['claude', 'codex', { claude: '/c', codex: '/x' }, ['--full-auto']],
    );
    assert.throws(() => readStoredLoopOptions('r3', { goal: 'g' }), /cannot be resumed/);
  });

  test('a run naming an agent shim does not know is not resumed as Claude Code', () => {
    assert.throws(
      () => readStoredLoopOptions('r6', { goal: 'g', agent: 'aider', bins: { claude: '/c' } }),
      /cannot be resumed: its stored options lack agent/,
    );
  });
});

describe('readSeedContextSettings (the seed names, docs/specification.md "The loop")', () => {
  test('unset: none; either name alone takes the other as its default', () => {
    assert.equal(readSeedContextSettings({}), null);
    assert.deepEqual(readSeedContextSettings({ CONTEXT_WINDOW_TOKENS: '200000' }), {
      percent: 70,
      windowTokens: 200_000,
    });
    assert.deepEqual(readSeedContextSettings({ CONTEXT_EXHAUSTION_THRESHOLD: '60' }), {
      percent: 60,
      windowTokens: null,
    });
  });

  test('a value out of range is refused with what to do, never read as "never restart"', () => {
    assert.throws(
      () => readSeedContextSettings({ CONTEXT_WINDOW_TOKENS: '0' }),
      /CONTEXT_WINDOW_TOKENS must be a whole number of tokens/,
    );
    assert.throws(
      () => readSeedContextSettings({ CONTEXT_EXHAUSTION_THRESHOLD: 'seventy' }),
      /CONTEXT_EXHAUSTION_THRESHOLD must be a percent/,
    );
  });

  test('a stored run keeps its window rule; one stored before it has none', () => {
    const rule = { percent: 70, windowTokens: 150_000 };
    assert.deepEqual(
      readStoredLoopOptions('r4', {
        goal: 'g',
        agent: 'claude',
        bins: { claude: '/c' },
        contextWindow: rule,
      }).contextWindow,
      rule,
    );
    assert.equal(
      readStoredLoopOptions('r5', { goal: 'g', agent: 'claude', bins: { claude: '/c' } })
        .contextWindow,
      null,
    );
  });
});
