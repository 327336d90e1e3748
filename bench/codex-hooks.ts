/**
 * Codex CLI's hooks as it pays for them: a fresh `shim hook --agent codex PostToolUse` process
 * per tool call on a rollout that grows by one turn (a shell call, its output and the
 * `token_count` after it) before each call, against `node -e ''` in the same run, interleaved.
 * The rollout starts from a real one (../shared/fixtures/agents/codex, read, never copied).
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { median, timeNode } from './child-time.ts';
import { makeTempDir, SHARED_FIXTURES_DIR } from '../test/helpers/fixtures.ts';
import { awaitWarmLook, stopWarmLooks } from './hooks.ts';

type Report = (name: string, value: string, note?: string) => void;

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'shim.cjs');
const ROLLOUT = join(
  SHARED_FIXTURES_DIR,
  'agents',
  'codex',
  'capstone__rollout-2026-03-09T16-19-13-019cd4ae-d53b-7632-be1c-624431e08b56.jsonl.gz',
);
const SESSION_ID = '019cd4ae-d53b-7632-be1c-624431e08b56';
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

/** One turn as Codex 0.169.0 appends it: the call, its output, then the usage of the response. */
function turn(n: number, input: number): string {
  const at = new Date(Date.UTC(2026, 10, 25, 12, 0, n % 60)).toISOString();
  const callId = `call_bench_${n}`;
  const usage = {
    input_tokens: input,
    cached_input_tokens: Math.floor(input * 0.8),
    output_tokens: 60,
    reasoning_output_tokens: 0,
    total_tokens: input + 60,
  };
  return [
    {
      timestamp: at,
      type: 'response_item',
      payload: {
        type: 'function_call',
        name: 'exec_command',
        arguments: JSON.stringify({ cmd: `ls src/${n}` }),
        call_id: callId,
      },
    },
    {
      timestamp: at,
      type: 'response_item',
      payload: { type: 'function_call_output', call_id: callId, output: 'a.ts\nb.ts\n' },
    },
    {
      timestamp: at,
      type: 'event_msg',
      payload: {
        type: 'token_count',
        info: {
          total_token_usage: usage,
          last_token_usage: usage,
          model_context_window: 258_400,
        },
      },
    },
  ]
    .map((line) => JSON.stringify(line))
    .join('\n')
    .concat('\n');
}

export function runCodexHookBench(report: Report, results: Record<string, unknown>): void {
  if (!existsSync(ROLLOUT)) {
    report('Codex PostToolUse hook', 'skipped', `no rollout at ${ROLLOUT}`);
    return;
  }
  const dir = makeTempDir('shim-bench-codex-');
  const project = join(dir, 'project');
  const sessions = join(dir, 'codex', 'sessions', '2026', '11', '25');
  mkdirSync(project, { recursive: true });
  mkdirSync(sessions, { recursive: true });
  const rollout = join(sessions, `rollout-2026-11-25T12-00-00-${SESSION_ID}.jsonl`);
  writeFileSync(rollout, gunzipSync(readFileSync(ROLLOUT)));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CODEX_HOME: join(dir, 'codex'),
    SHIM_HOME: join(dir, 'shim'),
  };
  delete env.NODE_EXTRA_CA_CERTS;
  // PostToolUse names the call it follows (`tool_use_id` = the rollout's `call_id`).
  const payload = (callId: string) =>
    JSON.stringify({
      session_id: SESSION_ID,
      turn_id: 'bench-turn',
      transcript_path: rollout,
      cwd: project,
      hook_event_name: 'PostToolUse',
      model: 'gpt-5.3-codex',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      tool_response: 'a.ts',
      tool_use_id: callId,
    });
  const hook = [BIN, 'hook', '--agent', 'codex', 'PostToolUse'];
  // Warm-up: the first tool call folds the whole rollout, writes the code cache and starts the
  // warm look (src/hook/warm-look/) the next calls ask first, as in a working session.
  // The session starts as Codex starts it (SHIM_HOME made there: a warm look starts only in one).
  timeNode(
    [BIN, 'hook', '--agent', 'codex', 'SessionStart'],
    JSON.stringify({
      ...JSON.parse(payload('none')),
      hook_event_name: 'SessionStart',
      source: 'startup',
    }),
    env,
  );
  timeNode(hook, payload('none'), env);
  const warm = awaitWarmLook(env.SHIM_HOME!);
  timeNode(['-e', ''], '', env);
  const node: number[] = [];
  const shim: number[] = [];
  try {
    for (let i = 0; i < 25; i++) {
      appendFileSync(rollout, turn(i, 60_000 + i * 500));
      node.push(timeNode(['-e', ''], '', env));
      shim.push(timeNode(hook, payload(`call_bench_${i}`), env));
    }
  } finally {
    stopWarmLooks(dir);
  }
  const ratio = median(shim) / median(node);
  report('Codex PostToolUse hook (median)', fmt(median(shim)), `node -e '' ${fmt(median(node))}`);
  report(
    'Codex PostToolUse hook / bare node',
    `${ratio.toFixed(2)}×`,
    `(one turn appended per call${warm ? ', the warm look asked first' : ', no warm look came'})`,
  );
  results.codexHook = { medianMs: median(shim), nodeMs: median(node), ratio };
}
