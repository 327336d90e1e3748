/**
 * Secrets (issue 26): recall over gitleaks' true-positive samples and the share of its
 * false-positive samples altered, shim beside secretlint alone in the same run; whole-value
 * redaction time by length (linear: a 1 MB value in < 50 ms); and a planted session — samples
 * in a real transcript's prompt, assistant text, a Bash command, error output and a `.env`
 * read — after which everything under SHIM_HOME (database with its FTS tables, cursor cache,
 * handoffs, logs) is searched for a raw sample.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactText, redactTextSync } from '../src/redact/redact.ts';
import { redactWithSecretlintOnly } from './secretlint-baseline.ts';
import { everythingUnder } from '../soak/content-fuzz.ts';
import { fixturePath, makeTempDir, FIXTURES_MISSING } from '../test/helpers/fixtures.ts';
import {
  loadSecretCorpus,
  scoreRedaction,
  SECRET_CORPUS_MISSING,
  type SecretSample,
} from '../test/helpers/secret-corpus.ts';

type Report = (name: string, value: string, note?: string) => void;

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'shim.cjs');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (n: number, total: number) => `${((n / total) * 100).toFixed(1)}%`;

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
function randomRun(n: number, seed: number): string {
  let state = seed >>> 0;
  let out = '';
  for (let i = 0; i < n; i++) {
    state = (Math.imul(state ^ (state >>> 15), 2246822519) + 0x6d2b79f5) >>> 0;
    out += B64[state & 63];
  }
  return out;
}

export async function runSecretsBench(
  report: Report,
  results: Record<string, unknown>,
): Promise<void> {
  process.stdout.write('secrets (gitleaks samples from ../shared/fixtures/secrets)\n');
  if (SECRET_CORPUS_MISSING) {
    report('secrets', 'skipped', SECRET_CORPUS_MISSING);
    return;
  }
  const samples = loadSecretCorpus();
  await redactText('warm up AKIAQWERTYUIOPASDFGH');
  const shim = await scoreRedaction(samples, async (t) => (await redactText(t)).text);
  const sync = await scoreRedaction(samples, (t) => redactTextSync(t).text);
  const lint = await scoreRedaction(samples, redactWithSecretlintOnly);
  for (const [name, s, target] of [
    ['shim (own formats + secretlint)', shim, '[≥ 99% / ≤ 5%]'],
    ['shim, synchronous (own formats only)', sync, 'what the hot path runs'],
    ['secretlint preset alone', lint, 'baseline, same run'],
  ] as const) {
    report(
      `  ${name}: recall / FP altered`,
      `${pct(s.redacted, s.truePositives)} / ${pct(s.altered, s.falsePositives)}`,
      `${target} ${s.redacted}/${s.truePositives} samples of ${s.rules} rules; ${s.altered}/${s.falsePositives} altered`,
    );
  }
  const missedRules = [...new Set(shim.missed.map((m) => m.rule))];
  report('  rules with a sample left raw', String(missedRules.length), missedRules.join(', '));

  // Whole values: time per length, the same text shape at each.
  // Per length the median of 7 runs is reported; the per-byte ratio compares the fastest runs,
  // which a busy machine's pauses (GC, other processes) disturb least.
  const times: Record<string, number> = {};
  const fastest: Record<string, number> = {};
  for (const [label, n] of [
    ['64 KB', 64 * 1024],
    ['256 KB', 256 * 1024],
    ['1 MB', 1024 * 1024],
  ] as const) {
    const value = randomRun(n, n);
    const text = `API_KEY=${value}\nnext`;
    const runs: number[] = [];
    let whole = true;
    for (let i = 0; i < 7; i++) {
      const start = performance.now();
      const out = await redactText(text);
      runs.push(performance.now() - start);
      whole &&= out.text === 'API_KEY=[REDACTED:secret-assignment]\nnext';
    }
    times[label] = median(runs);
    fastest[label] = Math.min(...runs);
    report(
      `  ${label} assigned value redacted`,
      `${median(runs).toFixed(1)} ms`,
      `${whole ? 'whole' : 'NOT WHOLE'}${label === '1 MB' ? ' [< 50 ms]' : ''}`,
    );
  }
  report(
    '  time per byte, 1 MB / 64 KB',
    (fastest['1 MB']! / 16 / fastest['64 KB']!).toFixed(2),
    '[≈ 1: linear] fastest of 7 runs each',
  );

  const planted = FIXTURES_MISSING ? null : plantedSession(samples);
  if (planted) {
    report(
      '  planted session: raw samples under SHIM_HOME',
      `${planted.rawCaught} / ${planted.caught}`,
      `[0] of the samples shim redacts alone; all planted: ${planted.rawAll}/${planted.planted} raw (their recall misses); ${planted.files} files and tables searched`,
    );
  }
  results.secrets = {
    shim: {
      recall: shim.redacted / shim.truePositives,
      altered: shim.altered / shim.falsePositives,
    },
    sync: {
      recall: sync.redacted / sync.truePositives,
      altered: sync.altered / sync.falsePositives,
    },
    secretlint: {
      recall: lint.redacted / lint.truePositives,
      altered: lint.altered / lint.falsePositives,
    },
    missedRules,
    wholeValueMs: times,
    planted,
  };
}

/**
 * The samples planted in a real transcript in five places, the hooks and commands run over it as
 * Claude Code and a user would, then everything under SHIM_HOME searched.
 */
function plantedSession(samples: SecretSample[]) {
  const tps = samples.filter((s) => s.kind === 'tp' && s.secret!.length >= 10);
  const dir = makeTempDir('shim-bench-planted-');
  const home = join(dir, 'shim');
  const project = join(dir, 'project');
  mkdirSync(project, { recursive: true });
  spawnSync('git', ['init', '-q', '-b', 'main'], { cwd: project });
  const sessionId = randomUUID();
  const real = readFileSync(fixturePath('spotter-4d5611e5-auto-compact-v2.1.39.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .slice(0, 300)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const stamp = (e: Record<string, unknown>) => ({ ...e, sessionId, cwd: project });
  const lines = real.map(stamp);
  const base = { type: 'user', timestamp: '2026-02-01T10:00:00.000Z', isSidechain: false };
  tps.forEach((s, i) => {
    const id = `toolu_planted_${i}`;
    const assistant = (content: unknown[]) =>
      stamp({
        type: 'assistant',
        uuid: `a-${i}`,
        timestamp: base.timestamp,
        message: { id: `msg_planted_${i}`, role: 'assistant', model: 'claude-opus-4-6', content },
      });
    const result = (text: string, isError = false) =>
      stamp({
        ...base,
        uuid: `r-${i}`,
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: id, content: text, is_error: isError }],
        },
      });
    switch (i % 5) {
      case 0:
        lines.push(
          stamp({
            ...base,
            uuid: `u-${i}`,
            message: { role: 'user', content: `Use this: ${s.text}` },
          }),
        );
        break;
      case 1:
        lines.push(assistant([{ type: 'text', text: `I will set it:\n${s.text}` }]));
        break;
      case 2:
        lines.push(
          assistant([
            { type: 'tool_use', id, name: 'Bash', input: { command: `echo '${s.text}' >> .env` } },
          ]),
          result(''),
        );
        break;
      case 3:
        lines.push(
          assistant([{ type: 'tool_use', id, name: 'Bash', input: { command: 'npm run deploy' } }]),
          result(`Error: request failed\n${s.text}\n    at deploy (deploy.js:10:5)`, true),
        );
        break;
      default:
        lines.push(
          assistant([
            { type: 'tool_use', id, name: 'Read', input: { file_path: `${project}/.env` } },
          ]),
          result(`     1\t${s.text}`),
        );
    }
  });
  const transcript = join(dir, `${sessionId}.jsonl`);
  writeFileSync(transcript, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SHIM_HOME: home,
    CLAUDE_CONFIG_DIR: join(dir, 'no-claude'),
  };
  delete env.NODE_EXTRA_CA_CERTS;
  const hook = (event: string, extra: Record<string, unknown> = {}) =>
    spawnSync(process.execPath, [BIN, 'hook', event], {
      env,
      cwd: project,
      input: JSON.stringify({
        session_id: sessionId,
        transcript_path: transcript,
        cwd: project,
        hook_event_name: event,
        ...extra,
      }),
    });
  hook('SessionStart', { source: 'startup' });
  hook('UserPromptSubmit', { prompt: tps[0]!.text });
  hook('PostToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } });
  hook('PreCompact', { trigger: 'auto' });
  hook('Stop');
  hook('SessionEnd', { reason: 'other' });
  for (const args of [
    ['resume', '--print', '--session', sessionId, '--all'],
    ['handoff', '--session', sessionId],
    ['status', transcript],
  ])
    spawnSync(process.execPath, [BIN, ...args], { env, cwd: project });
  const stored = everythingUnder(home);
  const all = stored.join('\n');
  const caught = tps.filter((s) => !redactTextSync(s.text).text.includes(s.secret!));
  if (process.env.SHIM_BENCH_DEBUG)
    for (const s of caught.filter((c) => all.includes(c.secret!))) {
      const where = stored.find((t) => t.includes(s.secret!))!;
      const at = where.indexOf(s.secret!);
      process.stderr.write(
        `RAW ${s.rule} ${tps.indexOf(s) % 5}: ${JSON.stringify(where.slice(Math.max(0, at - 120), at + 60))}\n`,
      );
    }
  return {
    planted: tps.length,
    caught: caught.length,
    rawCaught: caught.filter((s) => all.includes(s.secret!)).length,
    rawAll: tps.filter((s) => all.includes(s.secret!)).length,
    files: stored.length,
  };
}
