/**
 * No secret at rest, none in any output: a session full of gitleaks' sample secrets (in prompts,
 * commands, file contents, tool results, task subjects, the assistant's words) goes through the
 * hooks and the commands, and none of the secrets is found raw anywhere under SHIM_HOME — the
 * database (sections decompressed), caches, handoffs, logs — or in what the commands print.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { before, describe, test } from 'node:test';
import { DatabaseSync } from '@photostructure/sqlite';
import { redactTextSync } from '../src/redact/redact.ts';
import { BIN, runShim } from './helpers/cli.ts';
import { makeTempDir } from './helpers/fixtures.ts';
import { loadSecretCorpus } from './helpers/secret-corpus.ts';
import {
  assistantLine,
  toJsonl,
  toolResultLine,
  toolUseBlock,
  userPromptLine,
  type RawEntry,
} from './helpers/transcript-builders.ts';

const SESSION = 'a1b2c3d4-0000-4000-8000-00000000beef';
const DIST = join(BIN, '..', '..', 'dist');

/** The corpus secrets the redactor catches on their own (its recall is tested elsewhere). */
const secrets = loadSecretCorpus()
  .filter((s) => s.kind === 'tp' && s.secret!.length >= 10)
  .filter((s) => !redactTextSync(s.text).text.includes(s.secret!));

let home: string;
let project: string;
let transcript: string;
const outputs: string[] = [];

/** Every sample once, in turn as a prompt, a command, a file's content, a result, a task, prose. */
function plantedSession(): RawEntry[] {
  const entries: RawEntry[] = [];
  secrets.forEach((s, i) => {
    const id = `toolu_s${i}`;
    const text = s.text;
    switch (i % 6) {
      case 0:
        entries.push(userPromptLine(`Use this in the config:\n${text}`));
        break;
      case 1:
        entries.push(
          assistantLine({
            id: `msg_${i}`,
            content: [toolUseBlock(id, 'Bash', { command: `echo '${text}' > .env` })],
          }),
          toolResultLine({ toolUseId: id, content: '' }),
        );
        break;
      case 2:
        entries.push(
          assistantLine({
            id: `msg_${i}`,
            content: [
              toolUseBlock(id, 'Write', { file_path: `${project}/conf-${i}.txt`, content: text }),
            ],
          }),
          toolResultLine({ toolUseId: id, content: 'File created successfully' }),
        );
        break;
      case 3:
        entries.push(
          assistantLine({
            id: `msg_${i}`,
            content: [toolUseBlock(id, 'Read', { file_path: `${project}/x` })],
          }),
          toolResultLine({ toolUseId: id, content: `     1\t${text}` }),
        );
        break;
      case 4:
        entries.push(
          assistantLine({
            id: `msg_${i}`,
            content: [
              toolUseBlock(id, 'TaskCreate', { subject: `Rotate ${text}`, description: text }),
            ],
          }),
          toolResultLine({
            toolUseId: id,
            content: `Task #${i} created`,
            toolUseResult: { task: { id: String(i), subject: `Rotate ${text}` } },
          }),
        );
        break;
      default:
        entries.push(
          assistantLine({
            id: `msg_${i}`,
            content: [{ type: 'text', text: `I'll use ${text} instead of the old one.` }],
          }),
        );
    }
  });
  // The last tool call never got its result: a pending operation carrying a secret too.
  entries.push(
    assistantLine({
      id: 'msg_pending',
      content: [
        toolUseBlock('toolu_pending', 'Bash', {
          command: `curl -H "Authorization: Bearer ${secrets[0]!.secret}" https://api.test`,
        }),
      ],
    }),
  );
  return entries.map((e) => ({ ...e, sessionId: SESSION, cwd: project }));
}

function hook(event: string, extra: Record<string, unknown> = {}): void {
  const r = spawnSync(process.execPath, [BIN, 'hook', event], {
    input: JSON.stringify({
      session_id: SESSION,
      transcript_path: transcript,
      cwd: project,
      hook_event_name: event,
      ...extra,
    }),
    encoding: 'utf8',
    env: { ...process.env, SHIM_HOME: home, CLAUDE_CONFIG_DIR: join(home, 'no-claude') },
  });
  assert.equal(r.status, 0, r.stderr);
  outputs.push(r.stdout, r.stderr);
}

function shim(args: string[]): void {
  const r = runShim(home, args, { cwd: project });
  outputs.push(r.stdout, r.stderr);
}

/** Every file under `dir`, as text; the database as all its values, gzip sections opened. */
function everythingStored(dir: string, enter: (dir: string) => boolean = () => true): string[] {
  const texts: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) continue; // gone meanwhile (the warm look's directory as it leaves)
    if (stat.isDirectory()) {
      if (enter(path)) texts.push(...everythingStored(path, enter));
    } else if (/\.db(?:-wal|-shm)?$/.test(name)) continue;
    // The warm look's named pipes (run/) hold nothing at rest; reading one would wait forever.
    else if (stat.isFile()) {
      const bytes = readFileSync(path);
      texts.push(
        bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes).toString() : bytes.toString(),
      );
    }
  }
  return texts;
}

function everythingInTheDatabase(): string[] {
  const db = new DatabaseSync(join(home, 'shim.db'), { readOnly: true });
  const texts: string[] = [];
  try {
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'checkpoint_search_%'",
      )
      .all() as Array<{ name: string }>;
    for (const { name } of tables) {
      for (const row of db.prepare(`SELECT * FROM "${name}"`).all() as Array<
        Record<string, unknown>
      >) {
        for (const value of Object.values(row)) {
          if (value instanceof Uint8Array) {
            const bytes = Buffer.from(value);
            texts.push(
              bytes[0] === 0x1f && bytes[1] === 0x8b
                ? gunzipSync(bytes).toString()
                : bytes.toString(),
            );
          } else if (typeof value === 'string') texts.push(value);
        }
      }
    }
  } finally {
    db.close();
  }
  return texts;
}

describe('no secret at rest or in output', () => {
  before(() => {
    const root = makeTempDir('shim-secrets-');
    home = join(root, 'shim');
    project = join(root, 'project');
    spawnSync('mkdir', ['-p', project]);
    spawnSync('git', ['init', '-q', '-b', 'main'], { cwd: project });
    transcript = join(root, `${SESSION}.jsonl`);
    writeFileSync(transcript, toJsonl(plantedSession()));
    hook('SessionStart', { source: 'startup' });
    hook('PostToolUse', { tool_name: 'Bash' });
    hook('UserPromptSubmit', { prompt: secrets[1]!.text });
    hook('PreCompact', { trigger: 'manual' });
    hook('Stop', { stop_hook_active: false });
    hook('SessionEnd', { reason: 'other' });
    shim(['checkpoint', '--transcript', transcript, '--no-snapshot', '--json']);
    shim(['status', transcript, '--json']);
    shim(['status', transcript]);
    shim(['list', '--json']);
    shim(['resume', '--print']);
    shim(['resume', '--json']);
    shim(['handoff', '--print']);
    shim(['search', 'rotate', '--json']);
    shim(['search', 'config']);
    const id = (
      JSON.parse(runShim(home, ['list', '--json'], { cwd: project }).stdout) as Array<{
        id: string;
      }>
    )[0]!.id;
    shim(['show', id]);
    shim(['show', id, '--json']);
  });

  test(`the session holds ${secrets.length} secrets`, () => {
    assert.ok(secrets.length >= 400, String(secrets.length));
    assert.ok(readFileSync(transcript, 'utf8').includes(secrets[0]!.secret!));
  });

  test('none of them is stored raw under SHIM_HOME (database, caches, handoffs, logs)', () => {
    const stored = [...everythingStored(home), ...everythingInTheDatabase()].join('\n');
    assert.ok(stored.length > 10_000, 'there is something to scan');
    // V8's code caches (cache/v8) hold shim's own compiled bundles, whose secret rules spell out
    // a few fixed "secrets" (gitleaks' pattern for a short-lived Bedrock key is the key itself):
    // those count only where they are not part of shim's shipped code.
    const shipped = readdirSync(DIST)
      .filter((f) => f.endsWith('.cjs'))
      .map((f) => readFileSync(join(DIST, f), 'utf8'))
      .join('\n');
    const userData = [
      ...everythingStored(home, (dir) => dir !== join(home, 'cache', 'v8')),
      ...everythingInTheDatabase(),
    ].join('\n');
    const found = secrets.filter(
      (s) =>
        userData.includes(s.secret!) ||
        (stored.includes(s.secret!) && !shipped.includes(s.secret!)),
    );
    assert.deepEqual(
      found.map((s) => `${s.rule}: ${s.secret}`),
      [],
    );
  });

  test('none of them is printed by a hook or a command', () => {
    const printed = outputs.join('\n');
    assert.ok(printed.length > 10_000, 'the commands printed the session');
    const found = secrets.filter((s) => printed.includes(s.secret!));
    assert.deepEqual(
      found.map((s) => `${s.rule}: ${s.secret}`),
      [],
    );
  });
});
