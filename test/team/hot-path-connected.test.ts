/**
 * With a team store connected (config team.url, and SHIM_TEAM_URL), the hooks and the
 * statusline as Claude Code runs them — fresh processes through bin/shim.cjs — load no
 * PostgreSQL driver or query builder and open no connection: every module each process
 * requires and every file it reads is recorded by a preload, then checked. The bundles'
 * metafiles forbid pg and Kysely (src/entries/bundle-check.ts); this covers the connected
 * config's code path at run time, where a dynamic import would slip past a static rule.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { BIN } from '../helpers/cli.ts';
import { makeTempDir } from '../helpers/fixtures.ts';
import { signalQuietly } from '../../src/capture/process-tree.ts';
import { processesUnder } from '../helpers/processes.ts';
import {
  assistantLine,
  SESSION_ID,
  toJsonl,
  toolResultLine,
  toolUseBlock,
  userPromptLine,
} from '../helpers/transcript-builders.ts';
import { makeClone } from './team-fixture.ts';

// Preloaded into every shim process: what it required (CommonJS), imported (ES modules, through
// a loader hook) and read, and any socket it opened.
const ESM_HOOKS = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.SHIM_TEST_RECORD + '/' + process.pid + '.esm', url + '\\n');
  return next(url, context);
}`;
const RECORDER = `
const fs = require('node:fs'), Module = require('node:module'), net = require('node:net');
Module.register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(ESM_HOOKS)}));
const seen = { argv: process.argv.slice(2), required: [], read: [], connects: [] };
const load = Module._load;
Module._load = function (request, ...rest) { seen.required.push(request); return load.call(this, request, ...rest); };
const read = fs.readFileSync;
fs.readFileSync = function (path, ...rest) { if (typeof path === 'string') seen.read.push(path); return read.call(this, path, ...rest); };
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) { seen.connects.push(JSON.stringify(args[0])); return connect.apply(this, args); };
process.on('exit', () => fs.writeFileSync(process.env.SHIM_TEST_RECORD + '/' + process.pid + '.json', JSON.stringify({ ...seen, pid: process.pid })));
`;
// A package by name ('pg', 'pg-pool/…') or by its path in node_modules; not a checkout that
// happens to sit in a folder named pg-something.
const PG =
  /(^|[\\/]node_modules[\\/])(pg|pg-[a-z-]+|kysely|pgpass|@electric-sql[\\/]pglite)([\\/]|$)/;
const TEAM_CODE = ['PostgresDialect', 'pg-protocol', 'shim_checkpoints'];

test('hooks and the statusline with a team store connected load no pg or Kysely and connect nowhere', (t) => {
  const dir = makeTempDir('shim-team-hot-');
  const home = join(dir, 'shim');
  const records = join(dir, 'records');
  const preload = join(dir, 'recorder.cjs');
  writeFileSync(preload, RECORDER);
  spawnSync('mkdir', ['-p', home, records]);
  // An address nothing listens on: a connection attempt would show as a connect call.
  const url = 'postgres://ada@127.0.0.1:9/shim';
  writeFileSync(join(home, 'config.json'), `${JSON.stringify({ team: { url } })}\n`);
  const project = makeClone('app');
  const transcript = join(dir, `${SESSION_ID}.jsonl`);
  writeFileSync(transcript, toJsonl([userPromptLine('Port the importer to streaming reads')]));
  const env = {
    ...process.env,
    SHIM_HOME: home,
    CLAUDE_CONFIG_DIR: join(home, 'no-claude'),
    SHIM_TEAM_URL: url,
    SHIM_TEST_RECORD: records,
    NODE_OPTIONS: `--require ${preload}`,
  };
  const base = { session_id: SESSION_ID, transcript_path: transcript, cwd: project };
  const run = (args: string[], payload: Record<string, unknown>) => {
    const r = spawnSync(process.execPath, [BIN, ...args], {
      input: JSON.stringify({ ...base, ...payload }),
      encoding: 'utf8',
      env,
      cwd: project,
    });
    assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}${r.stdout}`);
  };
  run(['hook', 'SessionStart'], { hook_event_name: 'SessionStart', source: 'startup' });
  run(['hook', 'UserPromptSubmit'], { hook_event_name: 'UserPromptSubmit', prompt: 'go' });
  for (const [n, tool] of [
    [1, 'TaskCreate'],
    [2, 'Bash'],
    [3, 'Read'],
  ] as const) {
    const input = tool === 'Bash' ? { command: 'ls' } : { subject: 'Stream the rows' };
    writeFileSync(
      transcript,
      toJsonl([
        assistantLine({
          id: `msg_${n}`,
          usage: { input: 5, cacheCreation: 1000, cacheRead: 20_000, output: 40 },
          content: [toolUseBlock(`toolu_${n}`, tool, input)],
        }),
        toolResultLine({ toolUseId: `toolu_${n}`, content: 'done' }),
      ]),
      { flag: 'a' },
    );
    run(['hook', 'PostToolUse'], {
      hook_event_name: 'PostToolUse',
      tool_name: tool,
      tool_input: input,
      tool_response: {},
    });
  }
  run(['statusline'], { model: { id: 'claude-opus-4-6', display_name: 'Opus' } });
  run(['hook', 'Stop'], { hook_event_name: 'Stop' });
  // The checkpoints and the worker they start run detached (they may load pg; the hooks not).
  // The worker keeps retrying the unreachable server: stopped here once the hooks are checked.
  t.after(() => {
    for (const pid of processesUnder(home)) signalQuietly(pid, 'SIGKILL');
  });

  const perCall = readdirSync(records)
    .filter((f) => f.endsWith('.json'))
    .map(
      (f) =>
        JSON.parse(readFileSync(join(records, f), 'utf8')) as {
          argv: string[];
          required: string[];
          read: string[];
          connects: string[];
        },
    )
    .filter((r) => r.argv[0] === 'hook' || r.argv[0] === 'statusline');
  assert.equal(perCall.length, 7, 'every hook and statusline process was recorded');
  for (const r of perCall) {
    const what = r.argv.join(' ');
    assert.deepEqual(
      r.required.filter((m) => PG.test(m)),
      [],
      `${what} required pg or Kysely`,
    );
    assert.deepEqual(
      r.read.filter((p) => PG.test(p)),
      [],
      `${what} read a pg or Kysely file`,
    );
    for (const file of r.read.filter((p) => p.includes(`${join('dist', '')}`) && existsSync(p))) {
      const text = readFileSync(file, 'utf8');
      for (const marker of TEAM_CODE)
        assert.ok(!text.includes(marker), `${what} loaded ${file}, which holds ${marker}`);
    }
    assert.deepEqual(r.connects, [], `${what} opened a connection`);
  }
});
