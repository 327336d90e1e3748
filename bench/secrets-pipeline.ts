/**
 * Secrets through the whole pipeline (issue 38): gitleaks' true-positive samples planted in a
 * real Claude Code transcript the way people and agents write them, the session run through shim
 * as Claude Code runs it (hooks after each stretch, a compaction with its checkpoint, handoff and
 * summary every few samples), then the commands a user runs (resume, handoff, export, show,
 * search, status), then every file under SHIM_HOME and every printed output searched for each
 * raw secret.
 *
 * Each sample's own text sits in one of five places (rotating): pasted in a prompt, in the
 * assistant's prose, in a command, in a tool's error output, in a `.env` read. Its bare value
 * stands in the other four, with no credential word beside it (`deploy it to staging with
 * <value>`, a curl header, a file that is not a secret file), in Claude Code's compaction
 * summary, and in a prompt of the stretch before (stored in that stretch's checkpoint before
 * anything showed it is a secret): only a redactor that replaces a value found once everywhere
 * in the session, stored rows included, keeps those out.
 * @module
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { signalQuietly } from '../src/capture/process-tree.ts';
import { fixturePath, makeTempDir } from '../test/helpers/fixtures.ts';
import { processesUnder } from '../test/helpers/processes.ts';
import { placesUnder, whereRaw } from '../test/helpers/shim-home-texts.ts';
import type { SecretSample } from '../test/helpers/secret-corpus.ts';
import { startPostgres, type PostgresServer } from '../test/helpers/postgres.ts';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'shim.cjs');

/**
 * Samples between two compactions: every planted record stays inside the state's rings (two
 * tool calls, one prompt and one assistant text per sample; core/session.ts LIMITS).
 */
const PER_COMPACTION = 10;
/** Sessions run side by side (`SHIM_BENCH_SECRETS_LANES`, default 2). */
const LANES = Math.max(1, Number(process.env.SHIM_BENCH_SECRETS_LANES ?? 2));
/**
 * Samples of one session (ten compactions; `SHIM_BENCH_SECRETS_SESSION` sets it); `shim sync`
 * runs after each session. A whole run
 * (2,534 samples) is 254 compactions in 26 sessions sharing one SHIM_HOME and team store.
 */
const SESSION_SAMPLES = Math.max(
  PER_COMPACTION,
  Number(process.env.SHIM_BENCH_SECRETS_SESSION ?? 100),
);

export const POSITIONS = ['prompt', 'assistant prose', 'command', 'error output', '.env read'];

export type PipelineResult = {
  samples: number;
  keptOut: number;
  /** Samples whose value is raw in each place (a sample may count in several). */
  rawByLocation: Record<string, number>;
  /** Per place the sample's own text was planted: planted, raw anywhere. */
  byPosition: Record<string, { planted: number; raw: number }>;
  raw: Array<{ rule: string; position: string; where: string[] }>;
  sessions: number;
  /** SessionStart hooks that restored an earlier session (one that had ended by then). */
  restores: number;
  /** Compactions (each a checkpoint, a handoff, a summary). */
  checkpoints: number;
  /** Rows read back from the team store (null: no PostgreSQL server to run one). */
  teamRows: number | null;
  filesSearched: number;
  seconds: number;
};

type Entry = Record<string, unknown>;

export async function runPlantedPipeline(all: SecretSample[]): Promise<PipelineResult> {
  const started = performance.now();
  const samples = all.filter((s) => s.kind === 'tp' && s.secret!.length >= 8);
  const dir = makeTempDir('shim-bench-pipeline-');
  const home = join(dir, 'shim');
  const project = join(dir, 'project');
  mkdirSync(project, { recursive: true });
  const git = (...args: string[]) => spawnSync('git', args, { cwd: project });
  git('init', '-q', '-b', 'main');
  git('remote', 'add', 'origin', 'https://github.com/acme/deploy.git');
  writeFileSync(join(project, 'README.md'), '# deploy\n');
  git('-c', 'user.name=b', '-c', 'user.email=b@b', 'add', '.');
  git('-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-qm', 'init');

  const base = readFileSync(fixturePath('spotter-4d5611e5-auto-compact-v2.1.39.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .slice(0, 300)
    .map((l) => JSON.parse(l) as Entry);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SHIM_HOME: home,
    CLAUDE_CONFIG_DIR: join(dir, 'no-claude'),
  };
  delete env.NODE_EXTRA_CA_CERTS;
  const outputs: Array<{ where: string; text: string }> = [];
  // Asynchronous, so that sessions run side by side (LANES): each session's own calls stay in order.
  const shim = (args: string[], input?: string) =>
    new Promise<string>((done) => {
      const child = spawn(process.execPath, [BIN, ...args], { env, cwd: project });
      const out: Buffer[] = [];
      child.stdout.on('data', (b: Buffer) => out.push(b));
      child.stderr.on('data', (b: Buffer) => out.push(b));
      child.on('error', (error) => done(String(error)));
      child.on('close', () => done(Buffer.concat(out).toString()));
      child.stdin.on('error', () => {}); // a hook may exit before reading all of it
      child.stdin.end(input ?? '');
    });
  const run: Run = {
    env,
    project,
    base,
    shim,
    outputs,
    hookTimes: {},
    clock: Date.parse('2026-02-01T10:00:00.000Z'),
  };

  // The team store, connected from the start as a team would: rows go out during the sessions
  // (`shim sync` after each) and must be replaced there when redacted again.
  const team = await startTeamStore();
  if (team)
    outputs.push({
      where: 'shim team connect output',
      text: await shim(['team', 'connect', team.url]),
    });

  // Many sessions in one SHIM_HOME and one team store, as a user's month of work: each bounded,
  // so that a session's own growth (its rows gone through again at each secret it learns) costs
  // what it costs a user, not what one session of thousands of secrets would.
  const sessions: Array<{ id: string; transcript: string }> = [];
  let compactions = 0;
  const starts: number[] = [];
  for (let from = 0; from < samples.length; from += SESSION_SAMPLES) starts.push(from);
  await inLanes(starts, async (from) => {
    const session = await runSession(run, samples.slice(from, from + SESSION_SAMPLES), from, dir);
    sessions.push(session);
    compactions += session.compactions;
    // What the session stored goes out (what its checkpoints still build goes with the last).
    if (team) outputs.push({ where: 'shim sync output', text: await shim(['sync']) });
  });
  settle(dir);
  if (process.env.SHIM_BENCH_DEBUG)
    for (const [e, ts] of Object.entries(run.hookTimes))
      process.stderr.write(
        `${e}: ${ts.length} calls, mean ${(ts.reduce((a, b) => a + b, 0) / ts.length).toFixed(0)} ms\n`,
      );

  // What a user runs afterwards: every session resumed, handed off, exported; its newest and
  // oldest checkpoints shown (every row is also searched in the database itself).
  mkdirSync(join(home, 'exports'), { recursive: true });
  for (const args of [
    ['list', '--all', '--json', '--limit', '100000'],
    ['status', sessions.at(-1)!.transcript],
    ['search', 'deploy', '--all'],
  ])
    outputs.push({ where: `shim ${args[0]} output`, text: await shim(args) });
  await inLanes(sessions, async ({ id }) => {
    for (const args of [
      ['resume', '--print', '--session', id, '--all'],
      ['handoff', '--session', id],
      ['export', id, '--out', join(home, 'exports', `${id}.json`)],
    ])
      outputs.push({ where: `shim ${args[0]} output`, text: await shim(args) });
  });
  const listed = outputs.find((o) => o.where === 'shim list output')!.text;
  await inLanes(shownCheckpoints(listed), async (id) => {
    outputs.push({ where: 'shim show --json output', text: await shim(['show', id, '--json']) });
  });
  settle(dir);
  if (team) outputs.push({ where: 'shim sync output', text: await shim(['sync']) });
  settle(dir);
  for (const pid of processesUnder(dir, true)) signalQuietly(pid, 'SIGTERM');
  const teamRows = team ? await team.rows() : [];
  team?.dispose();

  if (process.env.SHIM_BENCH_KEEP) {
    // The home as it stood, and beside it what every command and hook printed (in order).
    spawnSync('cp', ['-r', home, process.env.SHIM_BENCH_KEEP]);
    writeFileSync(`${process.env.SHIM_BENCH_KEEP}.outputs.json`, JSON.stringify(outputs, null, 1));
  }
  const places = [...placesUnder(home), ...outputs, ...teamRows];
  const rawByLocation: Record<string, number> = {};
  const byPosition = Object.fromEntries(POSITIONS.map((p) => [p, { planted: 0, raw: 0 }]));
  const raw: PipelineResult['raw'] = [];
  const found = whereRaw(
    places,
    samples.map((s) => s.secret!),
  );
  samples.forEach((s, i) => {
    const where = found.get(s.secret!) ?? [];
    const position = POSITIONS[i % 5]!;
    byPosition[position]!.planted++;
    if (where.length === 0) return;
    byPosition[position]!.raw++;
    for (const w of where) rawByLocation[w] = (rawByLocation[w] ?? 0) + 1;
    raw.push({ rule: s.rule, position, where });
  });
  rmSync(dir, { recursive: true, force: true });
  return {
    samples: samples.length,
    keptOut: samples.length - raw.length,
    rawByLocation,
    byPosition,
    raw,
    sessions: sessions.length,
    restores: outputs.filter(
      (o) => o.where === 'hook SessionStart output' && o.text.includes('shim: restored checkpoint'),
    ).length,
    checkpoints: compactions,
    teamRows: team ? teamRows.length : null,
    filesSearched: places.length,
    seconds: (performance.now() - started) / 1000,
  };
}

/** What the sessions of one run share. */
type Run = {
  env: NodeJS.ProcessEnv;
  project: string;
  /** The real transcript's opening every session starts from. */
  base: Entry[];
  shim: (args: string[], input?: string) => Promise<string>;
  outputs: Array<{ where: string; text: string }>;
  hookTimes: Record<string, number[]>;
  clock: number;
};

/**
 * One session: `chunk` (samples `first`…) planted a stretch of {@link PER_COMPACTION} at a time,
 * the hooks run after each stretch, a compaction closing it.
 */
async function runSession(
  run: Run,
  chunkOfSession: SecretSample[],
  first: number,
  dir: string,
): Promise<{ id: string; transcript: string; compactions: number }> {
  const { project, outputs, hookTimes } = run;
  const sessionId = randomUUID();
  const transcript = join(dir, `${sessionId}.jsonl`);
  const stamp = (e: Entry): Entry => ({ ...e, sessionId, cwd: project, isSidechain: false });
  const at = () => new Date((run.clock += 1000)).toISOString();
  writeFileSync(transcript, run.base.map((l) => `${JSON.stringify(stamp(l))}\n`).join(''));
  const append = (entries: Entry[]) =>
    appendFileSync(transcript, entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
  // The session's agent: its hooks' parent for as long as it runs, as Claude Code is.
  const agent = startAgentStandIn(run.env, project);
  const hook = async (event: string, extra: Entry = {}) => {
    const t0 = performance.now();
    outputs.push({
      where: `hook ${event} output`,
      text: await agent.run(
        ['hook', event],
        JSON.stringify({
          session_id: sessionId,
          transcript_path: transcript,
          cwd: project,
          hook_event_name: event,
          ...extra,
        }),
      ),
    });
    (hookTimes[event] ??= []).push(performance.now() - t0);
  };

  await hook('SessionStart', { source: 'startup' });
  let response = 0;
  let compactions = 0;
  for (let from = 0; from < chunkOfSession.length; from += PER_COMPACTION) {
    const chunk = chunkOfSession.slice(from, from + PER_COMPACTION);
    const lines: Entry[] = [];
    let firstPrompt = '';
    let firstCommand = '';
    let firstError = '';
    chunk.forEach((s, k) => {
      const i = first + from + k;
      const own = i % 5;
      const value = s.secret!;
      const id = (p: number) => `toolu_p${i}_${p}`;
      const assistant = (content: unknown[]) =>
        stamp({
          type: 'assistant',
          uuid: randomUUID(),
          timestamp: at(),
          message: {
            id: `msg_p${i}_${response++}`,
            role: 'assistant',
            model: 'claude-opus-4-6',
            content,
            usage: { input_tokens: 10, cache_read_input_tokens: 40_000, output_tokens: 50 },
          },
        });
      const user = (content: unknown) =>
        stamp({
          type: 'user',
          uuid: randomUUID(),
          timestamp: at(),
          message: { role: 'user', content },
        });
      const result = (p: number, text: string, isError = false) =>
        user([{ type: 'tool_result', tool_use_id: id(p), content: text, is_error: isError }]);
      const prompt =
        own === 0 ? `Use this: ${s.text}` : `deploy it to staging with ${value} please`;
      const prose = own === 1 ? `I will set it:\n${s.text}` : `Deploying with ${value} now.`;
      const command =
        own === 2
          ? `echo '${s.text}' >> .env`
          : `curl -sS https://api.example.test/v1/deploy -H "X-Request: ${value}"`;
      const error =
        own === 3
          ? `Error: request failed\n${s.text}\n    at deploy (deploy.js:10:5)`
          : `Error: upstream rejected ${value} (HTTP 401)`;
      const read =
        own === 4
          ? { file: join(project, '.env'), text: s.text }
          : { file: join(project, 'notes', `deploy-${i}.txt`), text: `target: staging\n${value}` };
      const numbered = read.text
        .split('\n')
        .map((l, n) => `${String(n + 1).padStart(6)}→${l}`)
        .join('\n');
      lines.push(
        user(prompt),
        assistant([{ type: 'text', text: prose }]),
        assistant([
          { type: 'tool_use', id: id(2), name: 'Bash', input: { command, description: 'deploy' } },
        ]),
        result(2, error, true),
        assistant([{ type: 'tool_use', id: id(4), name: 'Read', input: { file_path: read.file } }]),
        result(4, numbered),
      );
      if (k === 0) {
        firstPrompt = prompt;
        firstCommand = command;
        firstError = error;
      }
    });
    // The next stretch's values, mentioned before anything names them: the checkpoint taken now
    // stores them raw, and they must be redacted there once a later line shows what they are.
    for (const s of chunkOfSession.slice(from + PER_COMPACTION, from + 2 * PER_COMPACTION))
      lines.push(
        stamp({
          type: 'user',
          uuid: randomUUID(),
          timestamp: at(),
          message: { role: 'user', content: `next we deploy with ${s.secret} as well` },
        }),
      );
    append(lines);
    await hook('UserPromptSubmit', { prompt: firstPrompt });
    const occasionally = compactions % 10 === 0;
    if (occasionally)
      await hook('PreToolUse', { tool_name: 'Bash', tool_input: { command: firstCommand } });
    await hook('PostToolUse', {
      tool_name: 'Bash',
      tool_input: { command: firstCommand },
      tool_response: { stdout: '', stderr: firstError, interrupted: false },
    });
    if (occasionally) await hook('Stop');
    // A compaction: its checkpoint and handoff (PreCompact), the boundary, Claude Code's summary
    // restating what was asked (the bare values in it), PostCompact.
    await hook('PreCompact', { trigger: 'auto' });
    const summary = `Summary: the user asked to deploy to staging; keys used: ${chunk.map((s) => s.secret).join(', ')}.`;
    append([
      stamp({
        type: 'system',
        subtype: 'compact_boundary',
        content: 'Conversation compacted',
        uuid: randomUUID(),
        timestamp: at(),
        compactMetadata: { trigger: 'auto', preTokens: 160_000 },
      }),
      stamp({
        type: 'user',
        uuid: randomUUID(),
        timestamp: at(),
        isCompactSummary: true,
        message: { role: 'user', content: summary },
      }),
    ]);
    await hook('PostCompact', { trigger: 'auto', compact_summary: summary });
    compactions++;
  }
  await hook('SessionEnd', { reason: 'other' });
  await agent.exit();
  return { id: sessionId, transcript, compactions };
}

/**
 * A running agent as shim sees one from its hooks: the hooks' parent process, whose command line
 * names the agent (capture/agent-process.ts), alive from SessionStart to SessionEnd. Hooks run
 * straight from the bench would have the bench as their parent — a process that is no agent,
 * which shim reads as the session's agent gone (killed): a session started beside a running one
 * would then restore it as crashed, which no user running two sessions side by side sees.
 */
function startAgentStandIn(env: NodeJS.ProcessEnv, cwd: string) {
  const child = spawn(process.execPath, ['-e', STAND_IN, 'claude-stand-in'], {
    env,
    cwd,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, (text: string) => void>();
  let next = 0;
  child.on('message', (m: { id: number; text: string }) => {
    waiting.get(m.id)?.(m.text);
    waiting.delete(m.id);
  });
  const gone = new Promise<void>((done) => child.on('exit', () => done()));
  return {
    run: (args: string[], input: string) =>
      new Promise<string>((done) => {
        const id = next++;
        waiting.set(id, done);
        child.send({ id, bin: BIN, args, input });
      }),
    exit: async () => {
      child.disconnect();
      await gone;
    },
  };
}

/** The stand-in's program: runs each shim command it is sent as its own child, answers its output. */
const STAND_IN = `
const { spawn } = require('node:child_process');
process.on('message', ({ id, bin, args, input }) => {
  const child = spawn(process.execPath, [bin, ...args]);
  const out = [];
  child.stdout.on('data', (b) => out.push(b));
  child.stderr.on('data', (b) => out.push(b));
  child.on('error', (error) => process.send({ id, text: String(error) }));
  child.on('close', () => process.send({ id, text: Buffer.concat(out).toString() }));
  child.stdin.on('error', () => {});
  child.stdin.end(input);
});
process.on('disconnect', () => process.exit(0));
`;

/** Each session's oldest and newest checkpoints, from `shim list --json`'s rows. */
function shownCheckpoints(listed: string): string[] {
  let rows: Array<{ id: string; sessionId: string; checkpointNumber: number }>;
  try {
    rows = JSON.parse(listed) as typeof rows;
  } catch {
    return []; // what it printed is searched as it is
  }
  const ends = new Map<string, { oldest: (typeof rows)[0]; newest: (typeof rows)[0] }>();
  for (const r of rows) {
    const seen = ends.get(r.sessionId);
    if (!seen) ends.set(r.sessionId, { oldest: r, newest: r });
    else {
      if (r.checkpointNumber < seen.oldest.checkpointNumber) seen.oldest = r;
      if (r.checkpointNumber > seen.newest.checkpointNumber) seen.newest = r;
    }
  }
  return [...new Set([...ends.values()].flatMap((e) => [e.oldest.id, e.newest.id]))];
}

/** `work` for each of `items`, {@link LANES} at a time. */
async function inLanes<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  const lane = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
  };
  await Promise.all(Array.from({ length: LANES }, lane));
}

/** Waits for what the hooks started in the background (checkpoints, gc) to finish. */
function settle(dir: string): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + 120_000;
  while (processesUnder(dir).length > 0 && Date.now() < deadline) Atomics.wait(pause, 0, 0, 20);
}

/**
 * A throwaway PostgreSQL server for the team store (test/helpers/postgres.ts), or null without
 * one; `rows` reads back every row of every shim table, as text.
 */
async function startTeamStore(): Promise<{
  url: string;
  rows: () => Promise<Array<{ where: string; text: string }>>;
  dispose: () => void;
} | null> {
  let server: PostgresServer;
  try {
    server = await startPostgres();
  } catch (error) {
    process.stderr.write(`secrets pipeline: no team store (${(error as Error).message})\n`);
    return null;
  }
  const database = await server.createDatabase();
  return {
    url: server.url(database),
    rows: async () => {
      const tables = await server.sql(
        database,
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name LIKE 'shim%'",
      );
      const rows: Array<{ where: string; text: string }> = [];
      for (const { table_name: table } of tables.rows as Array<{ table_name: string }>) {
        const all = await server.sql(
          database,
          `SELECT row_to_json(t)::text AS row FROM ${table} t`,
        );
        for (const r of all.rows as Array<{ row: string }>)
          rows.push({ where: `team store ${table}`, text: r.row });
      }
      return rows;
    },
    dispose: () => server.dispose(),
  };
}
