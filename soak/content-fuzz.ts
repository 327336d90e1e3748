/**
 * Content fuzz: nasty strings (test/helpers/nasty-content.ts: PEM fragments, 5 MB lines, NUL
 * bytes, lone surrogates, deep JSON, ANSI escapes, bidi marks, `</script>`, every gitleaks
 * sample) injected into real transcripts' requests, tool inputs and tool results. For each
 * session the hooks run as Claude Code runs them; every hook must exit 0, every session must
 * have its checkpoints, `resume --print` and `ui --export` must work, and neither the export nor
 * anything under SHIM_HOME may hold a raw secret or an unescaped injected `</script>`.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { DatabaseSync } from '@photostructure/sqlite';
import { redactText } from '../src/redact/redact.ts';
import {
  baseNastyStrings,
  sampleNastyStrings,
  SCRIPT_BREAKOUT,
  type NastyString,
} from '../test/helpers/nasty-content.ts';
import { crashIn, inPool, run, type Outcome } from './process.ts';
import type { Random } from './random.ts';
import { BIN, type Sandbox } from './sandbox.ts';

export type ContentFuzzReport = {
  sessions: number;
  injected: number;
  hooks: number;
  checkpoints: number;
  failures: string[];
  /** Secrets the redactor catches alone that were found raw afterwards. */
  leaked: string[];
  /** Exports that held the injected `</script>`, escaped. */
  scriptsChecked: number;
  seconds: number;
};

export type ContentFuzzOptions = {
  sessions: number;
  /** Nasty strings per session. */
  perSession: number;
  /** Include the 5 MB / 1 MB strings. */
  huge: boolean;
  /** Lines of each real transcript used (its start). */
  lines: number;
  width: number;
  progress: (line: string) => void;
};

type Obj = Record<string, unknown>;

/** A deeply nested tool input (JSON the fold must walk without recursion trouble). */
function deepInput(depth: number): Obj {
  let node: Obj = { leaf: 'bottom' };
  for (let i = 0; i < depth; i++) node = { n: node };
  return node;
}

/** Appends `text` to a request or a tool result of `entry`; false when it has neither. */
function inject(entry: Obj, text: string, random: Random): boolean {
  const message = entry.message as Obj | undefined;
  if (!message) return false;
  if (entry.type === 'user' && typeof message.content === 'string') {
    message.content = `${message.content}\n${text}`;
    return true;
  }
  if (!Array.isArray(message.content)) return false;
  for (const block of message.content as Obj[]) {
    if (block.type === 'tool_result') {
      block.content =
        typeof block.content === 'string'
          ? `${block.content}\n${text}`
          : [{ type: 'text', text }, ...((block.content as unknown[]) ?? [])];
      return true;
    }
    if (block.type === 'tool_use' && block.input && typeof block.input === 'object') {
      (block.input as Obj).note = text;
      if (random.chance(0.05)) (block.input as Obj).nested = deepInput(3000);
      return true;
    }
    if (block.type === 'text' && entry.type === 'assistant') {
      block.text = `${String(block.text)}\n${text}`;
      return true;
    }
  }
  return false;
}

/** A real transcript's first lines as a new session holding `strings`. */
function fuzzedSession(
  source: string,
  strings: readonly NastyString[],
  random: Random,
  lines: number,
): { sessionId: string; text: string; injected: number } {
  const sessionId = randomUUID();
  const entries = readFileSync(source, 'utf8')
    .split('\n')
    .slice(0, lines)
    .filter((l) => l.trim() !== '')
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as Obj];
      } catch {
        return [];
      }
    });
  const open = entries.filter((e) => e.message && (e.type === 'user' || e.type === 'assistant'));
  let injected = 0;
  for (const s of strings) {
    for (let tries = 0; tries < 8; tries++) {
      if (inject(random.pick(open), s.text, random)) {
        injected++;
        break;
      }
    }
  }
  // The requests a checkpoint always keeps (the first and the newest) carry the shapes that
  // broke checkpoints and pages before, so they reach the store and the export.
  const requests = entries.filter(
    (e) => e.type === 'user' && typeof (e.message as Obj | undefined)?.content === 'string',
  );
  const keyShapes = strings.filter((s) => /PEM|BEGIN|script|NUL|surrogate|bidi/.test(s.name));
  for (const e of [requests[0], requests.at(-1)]) {
    if (!e) continue;
    const message = e.message as Obj;
    message.content = `${String(message.content)}\n${keyShapes.map((s) => s.text).join('\n')}`;
    injected += keyShapes.length;
  }
  for (const e of entries) if ('sessionId' in e) e.sessionId = sessionId;
  return { sessionId, text: `${entries.map((e) => JSON.stringify(e)).join('\n')}\n`, injected };
}

/**
 * Every file under `dir` as text (gzip opened), and every value of the store. The V8 code cache
 * (cache/v8) is shim's own compiled code, not anything of the session: it holds the table of
 * formats' literal prefixes (`bedrock-api-key-YmVkcm9jay5…` is a whole gitleaks "secret").
 */
export function everythingUnder(dir: string): string[] {
  const texts: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      // Gone meanwhile (the warm look's directory as it leaves): nothing to read.
      const stat = statSync(path, { throwIfNoEntry: false });
      if (!stat) continue;
      if (stat.isDirectory()) {
        // run/ holds the warm look's named pipes: nothing at rest, and a read would wait.
        if (!(name === 'v8' && d.endsWith('cache')) && !(name === 'run' && d === dir)) walk(path);
      } else if (/\.db-(?:wal|shm)$/.test(name)) continue;
      else if (name.endsWith('.db')) texts.push(...everythingInStore(path));
      else if (stat.isFile()) {
        const bytes = readFileSync(path);
        texts.push(
          bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes).toString() : bytes.toString(),
        );
      }
    }
  };
  walk(dir);
  return texts;
}

/** Every value of every table, FTS tables included, compressed sections opened. */
function everythingInStore(path: string): string[] {
  const db = new DatabaseSync(path, { readOnly: true });
  const texts: string[] = [];
  try {
    db.exec('PRAGMA busy_timeout = 10000');
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all() as Array<{ name: string }>;
    for (const { name } of tables) {
      let rows: Array<Record<string, unknown>>;
      try {
        rows = db.prepare(`SELECT * FROM "${name}"`).all() as Array<Record<string, unknown>>;
      } catch {
        continue; // FTS shadow tables that cannot be read directly
      }
      for (const row of rows) {
        for (const value of Object.values(row)) {
          if (value instanceof Uint8Array) {
            const bytes = Buffer.from(value);
            try {
              texts.push(
                bytes[0] === 0x1f && bytes[1] === 0x8b
                  ? gunzipSync(bytes).toString()
                  : bytes.toString(),
              );
            } catch {
              texts.push(bytes.toString());
            }
          } else if (typeof value === 'string') texts.push(value);
        }
      }
    }
  } finally {
    db.close();
  }
  return texts;
}

function hookProblem(name: string, o: Outcome): string | null {
  if (o.timedOut) return `${name}: timed out`;
  if (o.status !== 0) return `${name}: exit ${o.status} ${o.stderr.slice(0, 200)}`;
  const crash = crashIn(o.stderr);
  if (crash) return `${name}: ${crash}`;
  return null;
}

export async function runContentFuzz(
  sandbox: Sandbox,
  random: Random,
  options: ContentFuzzOptions,
): Promise<ContentFuzzReport> {
  const started = performance.now();
  const home = sandbox.newShimHome('content-fuzz');
  mkdirSync(home, { recursive: true });
  const env = sandbox.envFor(home);
  const dir = join(sandbox.root, 'content-fuzz');
  mkdirSync(dir, { recursive: true });
  const pool = [...baseNastyStrings(random.next, options.huge), ...sampleNastyStrings()];
  const failures: string[] = [];
  // Secrets checked at rest: those the redactor catches on its own (its recall is measured by
  // the bench), so that what is found raw is a leak of the pipeline, not a miss of a rule.
  const watched = new Set<string>();
  let injected = 0;
  let hooks = 0;
  let checkpoints = 0;
  /** Exports that hold the injected `</script>` (escaped): the check above had something to check. */
  let scriptsChecked = 0;

  await inPool(
    Array.from({ length: options.sessions }, (_, i) => i),
    options.width,
    async (i) => {
      const source = sandbox.transcripts[i % sandbox.transcripts.length]!;
      // The fixed shapes in every session, samples to fill it up.
      const fixed = pool.slice(0, Math.min(options.perSession, 22));
      const strings = [
        ...fixed,
        ...Array.from({ length: Math.max(0, options.perSession - fixed.length) }, () =>
          random.pick(pool),
        ),
      ];
      for (const s of strings) {
        if (s.secret && s.secret.length >= 10 && !watched.has(s.secret)) {
          const alone = (await redactText(s.text)).text;
          if (!alone.includes(s.secret)) watched.add(s.secret);
        }
      }
      const session = fuzzedSession(source, strings, random, options.lines);
      injected += session.injected;
      const transcript = join(dir, `${session.sessionId}.jsonl`);
      writeFileSync(transcript, session.text);
      const payload = (event: string, extra: Obj = {}) =>
        JSON.stringify({
          session_id: session.sessionId,
          transcript_path: transcript,
          cwd: sandbox.project,
          hook_event_name: event,
          ...extra,
        });
      const steps: Array<[string, Obj]> = [
        ['SessionStart', { source: 'startup' }],
        ['UserPromptSubmit', { prompt: strings[0]!.text.slice(0, 10_000) }],
        ['PostToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } }],
        ['PreCompact', { trigger: 'manual' }],
        ['Stop', {}],
      ];
      for (const [event, extra] of steps) {
        const o = await run(process.execPath, [BIN, 'hook', event], {
          env,
          cwd: sandbox.project,
          input: payload(event, extra),
          timeoutMs: 120_000,
        });
        hooks++;
        const problem = hookProblem(`${event} ${session.sessionId.slice(0, 8)}`, o);
        if (problem) failures.push(problem);
      }
      const count = checkpointsOf(home, session.sessionId);
      checkpoints += count;
      if (count === 0) failures.push(`session ${session.sessionId.slice(0, 8)} has no checkpoint`);
      const resume = await run(
        process.execPath,
        [BIN, 'resume', '--print', '--session', session.sessionId, '--all'],
        { env, cwd: sandbox.project, timeoutMs: 120_000 },
      );
      if (resume.status !== 0 || resume.stdout.trim() === '')
        failures.push(
          `resume --print ${session.sessionId.slice(0, 8)}: exit ${resume.status} ${resume.stderr.slice(0, 200)}`,
        );
      const file = join(dir, `${session.sessionId}.html`);
      const exported = await run(
        process.execPath,
        [BIN, 'ui', '--export', file, '--session', session.sessionId, '--force'],
        { env, cwd: sandbox.project, timeoutMs: 120_000 },
      );
      if (exported.status !== 0) {
        failures.push(
          `ui --export ${session.sessionId.slice(0, 8)}: exit ${exported.status} ${exported.stderr.slice(0, 200)}`,
        );
      } else {
        const html = readFileSync(file, 'utf8');
        if (html.includes(SCRIPT_BREAKOUT))
          failures.push(`ui --export ${session.sessionId.slice(0, 8)}: unescaped </script>`);
        else if (!html.includes('shimNasty')) scriptsChecked--;
        scriptsChecked++;
        for (const secret of watched)
          if (html.includes(secret))
            failures.push(
              `ui --export ${session.sessionId.slice(0, 8)}: raw secret ${secret.slice(0, 12)}…`,
            );
      }
      for (const text of [resume.stdout]) {
        for (const secret of watched)
          if (text.includes(secret))
            failures.push(`resume --print: raw secret ${secret.slice(0, 12)}…`);
      }
      options.progress(
        `  session ${i + 1}/${options.sessions}: ${session.injected} strings, ${count} checkpoint${count === 1 ? '' : 's'}`,
      );
    },
  );

  const stored = everythingUnder(home).join('\n');
  const leaked = [...watched].filter((s) => stored.includes(s)).map((s) => `${s.slice(0, 12)}…`);
  return {
    sessions: options.sessions,
    injected,
    hooks,
    checkpoints,
    failures,
    leaked,
    scriptsChecked,
    seconds: (performance.now() - started) / 1000,
  };
}

function checkpointsOf(home: string, sessionId: string): number {
  const db = new DatabaseSync(join(home, 'shim.db'), { readOnly: true });
  try {
    db.exec('PRAGMA busy_timeout = 10000');
    return (
      db.prepare('SELECT COUNT(*) AS n FROM checkpoints WHERE session_id = ?').get(sessionId) as {
        n: number;
      }
    ).n;
  } finally {
    db.close();
  }
}
