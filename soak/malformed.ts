/**
 * Generated bad input at every front door: hook payloads, statusline JSON, command-line
 * arguments, JSON-RPC lines to `shim mcp`, config files and transcripts. None may crash shim,
 * hang it, make a hook exit non-zero or put anything but JSON on a hook's stdout, or write
 * outside SHIM_HOME.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crashIn, inPool, percentile, run, type Outcome } from './process.ts';
import type { Random } from './random.ts';
import { BIN, escapedFiles, integrityOf, type Sandbox } from './sandbox.ts';
import { stdoutProblem } from './burst.ts';

export type MalformedReport = {
  inputs: number;
  byDoor: Record<string, number>;
  processes: number;
  failures: string[];
  escaped: string[];
  integrityFailures: string[];
  p50Ms: number;
  p99Ms: number;
  seconds: number;
};

type Case = { door: string; name: string; check: () => Promise<string | null> };

const HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PreCompact',
  'PostCompact',
  'Stop',
  'SessionEnd',
  'PostModelSwitch',
  'StopFailure',
] as const;

/** Whole stdin texts that are not what a front door expects. */
function rawTexts(random: Random): { name: string; text: string | Buffer }[] {
  const bytes = Buffer.alloc(4096);
  for (let i = 0; i < bytes.length; i++) bytes[i] = random.int(0, 255);
  return [
    { name: 'empty', text: '' },
    { name: 'words', text: 'this is not json' },
    { name: 'open brace', text: '{' },
    { name: 'cut object', text: '{"session_id":"abc","transcript_path":' },
    { name: 'array', text: '[]' },
    { name: 'null', text: 'null' },
    { name: 'string', text: '"hello"' },
    { name: 'number', text: '42' },
    { name: 'control bytes', text: '\u0000\u0001\u0002' },
    { name: 'BOM + object', text: '\ufeff{"session_id":"bom"}' },
    { name: '100k-deep arrays', text: `${'['.repeat(100_000)}${']'.repeat(100_000)}` },
    { name: 'random bytes', text: bytes },
    {
      name: '4 MB string',
      text: JSON.stringify({ session_id: 'big', prompt: 'x'.repeat(4 << 20) }),
    },
  ];
}

/** Values a field should never hold, paths that lead outside, odd strings. */
function oddValues(sandbox: Sandbox, shimHome: string): unknown[] {
  const depthToRoot = shimHome.slice(sandbox.root.length).split('/').filter(Boolean).length + 1;
  return [
    null,
    0,
    -1,
    1e308,
    true,
    [],
    {},
    [1, 'two', null],
    { nested: { deeper: [{}] } },
    '',
    ' ',
    '..',
    '.',
    '/',
    `${'../'.repeat(depthToRoot)}outside/PWNED`,
    `${'../'.repeat(depthToRoot + 2)}outside/PWNED`,
    join(sandbox.outside, 'PWNED'),
    'nul\u0000byte',
    '\ud800 lone surrogate',
    '😀'.repeat(500),
    'x'.repeat(20_000),
    '%s%n%d',
    '$(touch /tmp/shim-soak-injected)',
    'C:\\Windows\\System32',
    '\n\r\t',
    '/dev/null',
    '/proc/self/status',
    sandbox.root, // a directory
    join(sandbox.root, 'does', 'not', 'exist.jsonl'),
  ];
}

function validHookPayload(event: string, sandbox: Sandbox, transcript: string) {
  return {
    session_id: sandbox.sessionOf.get(transcript),
    transcript_path: transcript,
    cwd: sandbox.project,
    hook_event_name: event,
    permission_mode: 'default',
    tool_name: 'Bash',
    tool_input: { command: 'git reset --hard' },
    tool_response: { stdout: '', stderr: '', exitCode: 0 },
    tool_use_id: 'toolu_soak',
    prompt: 'continue',
    trigger: 'auto',
    source: 'startup',
    reason: 'other',
    custom_instructions: '',
    error: 'failed',
  };
}

function statuslinePayload(sandbox: Sandbox, transcript: string) {
  return {
    session_id: sandbox.sessionOf.get(transcript),
    transcript_path: transcript,
    cwd: sandbox.project,
    model: { id: 'claude-opus-4-6', display_name: 'Opus' },
    workspace: { current_dir: sandbox.project, project_dir: sandbox.project },
    version: '2.1.330',
    cost: { total_cost_usd: 1.5, total_duration_ms: 1000 },
    context_window: { context_window_size: 200_000, current_usage: { input_tokens: 1000 } },
    exceeds_200k_tokens: false,
  };
}

/** The object with one field (possibly nested) replaced. */
function mutate(random: Random, value: Record<string, unknown>, odd: unknown[]) {
  const copy = structuredClone(value);
  const key = random.pick(Object.keys(copy));
  const field = copy[key];
  if (field && typeof field === 'object' && !Array.isArray(field) && random.chance(0.5)) {
    const inner = field as Record<string, unknown>;
    const innerKey = random.pick([...Object.keys(inner), 'unexpected']);
    inner[innerKey] = random.pick(odd);
    return { copy, label: `${key}.${innerKey}` };
  }
  copy[key] = random.chance(0.1) ? undefined : random.pick(odd);
  return { copy, label: key };
}

const describe = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
};

/** What every run must satisfy; `hook` adds the hook contract (exit 0, JSON or nothing). */
function problemOf(outcome: Outcome, kind: 'hook' | 'statusline' | 'command'): string | null {
  if (outcome.timedOut) return 'hung (killed after the time limit)';
  if (outcome.signal) return `died of ${outcome.signal}`;
  const crash = crashIn(outcome.stderr);
  if (crash) return `crashed: ${crash}`;
  if (kind === 'hook') {
    if (outcome.status !== 0) return `exited ${outcome.status}`;
    return stdoutProblem(outcome.stdout);
  }
  if (kind === 'statusline') {
    if (outcome.status !== 0) return `exited ${outcome.status}`;
    // Claude Code shows the statusline's stdout as is: a line or two of text, never a dump.
    return outcome.stdout.split('\n').length > 4 ? `printed ${outcome.stdout.length} bytes` : null;
  }
  if (outcome.status !== 0 && outcome.status !== 1 && outcome.status !== 2)
    return `exited ${outcome.status}`;
  if (outcome.status !== 0 && outcome.stderr.trim() === '') return 'failed without saying why';
  return null;
}

/** Option flags that take a value, read from each command's own --help. */
function valueFlagsOf(help: string): string[] {
  return [...help.matchAll(/^\s+(?:-\w, )?(--[a-z-]+) <[^>]+>/gm)].map((m) => m[1]!);
}

/** A transcript made wrong in one of the ways a disk, a crash or a future version could. */
function brokenTranscript(random: Random, source: string, odd: unknown[], sessionId: string) {
  const lines = source.split('\n').filter(Boolean).slice(0, 300);
  const at = random.int(0, lines.length - 1);
  switch (random.int(0, 7)) {
    case 0: // cut mid-line, as a crash mid-write leaves it
      lines[at] = lines[at]!.slice(0, random.int(1, lines[at]!.length - 1));
      return { label: 'a line cut mid-way', text: lines.join('\n') };
    case 1: {
      const noise = Array.from({ length: 200 }, () => String.fromCharCode(random.int(0, 0xffff)));
      lines.splice(at, 0, noise.join(''));
      return { label: 'a line of noise', text: lines.join('\n') };
    }
    case 2: {
      // One field of one entry replaced by a value of the wrong kind.
      try {
        const entry = JSON.parse(lines[at]!) as Record<string, unknown>;
        const { copy, label } = mutate(random, entry, odd);
        lines[at] = JSON.stringify(copy);
        return { label: `entry field ${label} odd`, text: lines.join('\n') };
      } catch {
        return { label: 'as is', text: lines.join('\n') };
      }
    }
    case 3:
      lines.splice(
        at,
        0,
        JSON.stringify({ type: 'user', sessionId, message: { content: 'y'.repeat(3 << 20) } }),
      );
      return { label: 'a 3 MB line', text: lines.join('\n') };
    case 4:
      lines.splice(at, 0, `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`);
      return { label: 'a 20k-deep line', text: lines.join('\n') };
    case 5:
      return {
        label: 'sessionId that walks out',
        text: lines
          .map((l) => l.replaceAll(sessionId, String(random.pick(odd.slice(14, 17)))))
          .join('\n'),
      };
    case 6:
      return { label: 'CRLF and blank lines', text: lines.join('\r\n\r\n') };
    default:
      return {
        label: 'every entry a wrong type',
        text: lines.map(() => random.pick(['1', '[]', 'null', '"s"', '{}'])).join('\n'),
      };
  }
}

export async function runMalformed(
  sandbox: Sandbox,
  random: Random,
  options: { width: number; progress: (line: string) => void },
): Promise<MalformedReport> {
  const started = performance.now();
  const shimHome = sandbox.newShimHome('malformed');
  const env = sandbox.envFor(shimHome);
  const odd = oddValues(sandbox, shimHome);
  const latencies: number[] = [];
  let processes = 0;
  const exec = async (
    args: string[],
    input?: string | Buffer,
    caseEnv = env,
    timeoutMs = 30_000,
  ) => {
    processes++;
    const outcome = await run(process.execPath, [BIN, ...args], {
      env: caseEnv,
      cwd: sandbox.project,
      input,
      timeoutMs,
    });
    latencies.push(outcome.ms);
    return outcome;
  };
  const cases: Case[] = [];
  const transcript = () => random.pick(sandbox.transcripts);

  // Hooks: every event gets every raw text and mutated payloads.
  for (const event of HOOK_EVENTS) {
    for (const { name, text } of rawTexts(random))
      cases.push({
        door: 'hook',
        name: `${event} stdin ${name}`,
        check: async () => problemOf(await exec(['hook', event], text), 'hook'),
      });
    for (let i = 0; i < 8; i++) {
      const { copy, label } = mutate(random, validHookPayload(event, sandbox, transcript()), odd);
      cases.push({
        door: 'hook',
        name: `${event} ${label}=${describe(copy[label.split('.')[0]!])}`,
        check: async () => problemOf(await exec(['hook', event], JSON.stringify(copy)), 'hook'),
      });
    }
  }
  cases.push({
    door: 'hook',
    name: 'unknown event name',
    check: async () => problemOf(await exec(['hook', 'NoSuchEvent'], '{}'), 'hook'),
  });

  // The statusline: raw texts, mutated payloads, wrapped commands that misbehave.
  for (const { name, text } of rawTexts(random))
    cases.push({
      door: 'statusline',
      name: `stdin ${name}`,
      check: async () => problemOf(await exec(['statusline'], text), 'statusline'),
    });
  for (let i = 0; i < 24; i++) {
    const { copy, label } = mutate(random, statuslinePayload(sandbox, transcript()), odd);
    cases.push({
      door: 'statusline',
      name: `${label}=${describe(copy[label.split('.')[0]!])}`,
      check: async () => problemOf(await exec(['statusline'], JSON.stringify(copy)), 'statusline'),
    });
  }
  for (const command of ['exit 3', 'no-such-command-soak', 'head -c 2000 /dev/urandom', 'sleep 30'])
    cases.push({
      door: 'statusline',
      name: `--wrap-command '${command}'`,
      check: async () => {
        const outcome = await exec(
          ['statusline', '--wrap-command', command],
          JSON.stringify(statuslinePayload(sandbox, transcript())),
        );
        // The user's own command's output is relayed as it is; shim's segment must follow it.
        if (outcome.ms > 15_000) return `took ${outcome.ms.toFixed(0)} ms`;
        if (outcome.status !== 0) return `exited ${outcome.status}`;
        return (
          crashIn(outcome.stderr) ??
          (outcome.stdout.includes('[CTX') ? null : "shim's own segment is missing")
        );
      },
    });

  // Command-line arguments: every value-taking flag of every command, odd positionals, unknown flags.
  const commands = [
    'status',
    'replay',
    'checkpoint',
    'list',
    'show',
    'search',
    'resume',
    'handoff',
    'gc',
    'restore-files',
    'config',
    'doctor',
    'install',
    'uninstall',
  ];
  const argValues = [
    'abc',
    '-1',
    '1e999',
    'NaN',
    '0x10',
    '',
    ' 5 ',
    '%s',
    'x'.repeat(5000),
    '😀',
    '--',
    '-',
    '/dev/null',
    sandbox.root,
    join(sandbox.root, 'missing'),
  ];
  for (const command of commands) {
    const help = (await exec([command, '--help'])).stdout;
    const flags = valueFlagsOf(help);
    for (const flag of flags) {
      const value = random.pick(argValues);
      cases.push({
        door: 'cli',
        name: `${command} ${flag} ${describe(value)}`,
        check: async () => problemOf(await exec([command, flag, value]), 'command'),
      });
    }
    for (let i = 0; i < 2; i++) {
      const value = random.pick(argValues);
      cases.push({
        door: 'cli',
        name: `${command} ${describe(value)}`,
        check: async () => problemOf(await exec([command, value]), 'command'),
      });
    }
    cases.push({
      door: 'cli',
      name: `${command} --no-such-flag`,
      check: async () => problemOf(await exec([command, '--no-such-flag']), 'command'),
    });
  }
  cases.push({
    door: 'cli',
    name: 'unknown command',
    check: async () => problemOf(await exec(['frobnicate']), 'command'),
  });

  // JSON-RPC to `shim mcp`: each bad line, then a ping that must still be answered.
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'soak', version: '1' },
    },
  });
  const listed = await exec(
    ['mcp'],
    `${initialize}\n${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })}\n`,
  );
  const tools = listed.stdout.split('\n').flatMap((l) => {
    try {
      return (
        (JSON.parse(l) as { result?: { tools?: { name: string }[] } }).result?.tools ?? []
      ).map((t) => t.name);
    } catch {
      return [];
    }
  });
  if (tools.length === 0) throw new Error(`shim mcp listed no tools: ${listed.stderr}`);
  const badLines: { name: string; line: string }[] = [
    ...rawTexts(random)
      .filter(
        (t) => typeof t.text === 'string' && !t.text.includes('\n') && t.text.length < 1 << 20,
      )
      .map((t) => ({ name: t.name, line: String(t.text) })),
    { name: 'no jsonrpc', line: '{"id":5,"method":"ping"}' },
    { name: 'id is an object', line: '{"jsonrpc":"2.0","id":{},"method":"ping"}' },
    { name: 'method is a number', line: '{"jsonrpc":"2.0","id":5,"method":12}' },
    { name: 'unknown method', line: '{"jsonrpc":"2.0","id":5,"method":"shim/explode"}' },
    {
      name: 'params a string',
      line: '{"jsonrpc":"2.0","id":5,"method":"tools/list","params":"x"}',
    },
    { name: 'batch', line: '[{"jsonrpc":"2.0","id":5,"method":"ping"}]' },
  ];
  for (const tool of tools)
    for (let i = 0; i < 3; i++) {
      const args = random.chance(0.3)
        ? random.pick(odd)
        : {
            [random.pick(['id', 'query', 'session_id', 'limit', 'sessionId', 'note', 'cwd'])]:
              random.pick(odd),
          };
      badLines.push({
        name: `${tool}(${describe(args)})`,
        line: JSON.stringify({
          jsonrpc: '2.0',
          id: 5,
          method: 'tools/call',
          params: { name: tool, arguments: args },
        }),
      });
    }
  for (const { name, line } of badLines)
    cases.push({
      door: 'mcp',
      name,
      check: async () => {
        const ping = JSON.stringify({ jsonrpc: '2.0', id: 999, method: 'ping' });
        const outcome = await exec(['mcp'], `${initialize}\n${line}\n${ping}\n`);
        const problem = problemOf(outcome, 'command');
        if (problem) return problem;
        const replies = outcome.stdout.split('\n').filter(Boolean);
        for (const reply of replies)
          try {
            JSON.parse(reply);
          } catch {
            return `a reply that is not JSON: ${reply.slice(0, 80)}`;
          }
        return replies.some((r) => r.includes('"id":999'))
          ? null
          : 'the ping after it got no answer';
      },
    });

  // Config files: each in a SHIM_HOME (and a project) of its own.
  const validConfig = {
    enabled: true,
    levels: { L1: 70, L2: 85, L3: 95 },
    checkpoints: { everyToolCalls: 5, everyMinutes: 10 },
    retention: { auto: true, days: 30, maxStoreMB: 500 },
    resumeWindowDays: 7,
    restoreAtStartup: true,
    risk: { warning: { compactUsage: 0.7 } },
  };
  const configTexts: { name: string; text: string | Buffer; where: 'home' | 'project' }[] = [
    ...rawTexts(random)
      .slice(0, 11)
      .map((t) => ({ ...t, where: 'home' as const })),
  ];
  for (let i = 0; i < 24; i++) {
    const { copy, label } = mutate(random, validConfig, odd);
    configTexts.push({
      name: `${label}=${describe(copy[label.split('.')[0]!])}`,
      text: JSON.stringify(copy),
      where: i % 3 === 0 ? 'project' : 'home',
    });
  }
  configTexts.forEach(({ name, text, where }, i) =>
    cases.push({
      door: 'config',
      name: `${where} ${name}`,
      check: async () => {
        const home = sandbox.newShimHome(`config-${i}`);
        const project = join(sandbox.root, 'projects', `config-${i}`);
        mkdirSync(home, { recursive: true });
        mkdirSync(project, { recursive: true });
        writeFileSync(
          where === 'home' ? join(home, 'config.json') : join(project, '.shim.json'),
          text,
        );
        const caseEnv = sandbox.envFor(home);
        const t = transcript();
        const shown = await exec(['config', '--cwd', project], undefined, caseEnv);
        const hook = await exec(
          ['hook', 'PostToolUse'],
          JSON.stringify({ ...validHookPayload('PostToolUse', sandbox, t), cwd: project }),
          caseEnv,
        );
        const line = await exec(
          ['statusline'],
          JSON.stringify({ ...statuslinePayload(sandbox, t), cwd: project }),
          caseEnv,
        );
        return (
          // `shim config` reports a problem in its table (stdout) and exits 1.
          (shown.status === 1 && /problem: /.test(shown.stdout)
            ? problemOf({ ...shown, status: 0 }, 'command')
            : problemOf(shown, 'command')) ??
          problemOf(hook, 'hook') ??
          problemOf(line, 'statusline')
        );
      },
    }),
  );

  // Transcripts: broken copies of real ones, read by every command and hook that reads one.
  const broken = join(sandbox.root, 'broken');
  mkdirSync(broken, { recursive: true });
  for (let i = 0; i < 40; i++) {
    const source = transcript();
    const { label, text } = brokenTranscript(
      random,
      readFileSync(source, 'utf8'),
      odd,
      sandbox.sessionOf.get(source)!,
    );
    const path = join(broken, `broken-${i}.jsonl`);
    writeFileSync(path, text);
    cases.push({
      door: 'transcript',
      name: label,
      check: async () => {
        const payload = {
          ...validHookPayload('PostToolUse', sandbox, source),
          transcript_path: path,
        };
        const runs: [Outcome, 'hook' | 'command', string][] = [
          [await exec(['replay', path]), 'command', 'replay'],
          [await exec(['status', path]), 'command', 'status'],
          [await exec(['checkpoint', '--transcript', path, '--json']), 'command', 'checkpoint'],
          [await exec(['hook', 'PostToolUse'], JSON.stringify(payload)), 'hook', 'PostToolUse'],
          [
            await exec(
              ['hook', 'PreCompact'],
              JSON.stringify({ ...payload, hook_event_name: 'PreCompact' }),
            ),
            'hook',
            'PreCompact',
          ],
        ];
        for (const [outcome, kind, what] of runs) {
          const problem = problemOf(outcome, kind);
          if (problem) return `${what}: ${problem}`;
        }
        return null;
      },
    });
  }

  options.progress(`  ${cases.length} generated inputs`);
  const failures: string[] = [];
  const byDoor: Record<string, number> = {};
  let done = 0;
  await inPool(cases, options.width, async (c) => {
    byDoor[c.door] = (byDoor[c.door] ?? 0) + 1;
    const problem = await c.check().catch((error: unknown) => `soak error: ${String(error)}`);
    if (problem) failures.push(`${c.door}: ${c.name}: ${problem}`);
    if (++done % 100 === 0)
      options.progress(`  ${done}/${cases.length} inputs, ${failures.length} failures`);
  });

  const integrity = integrityOf(shimHome);
  return {
    inputs: cases.length,
    byDoor,
    processes,
    failures,
    escaped: escapedFiles(sandbox),
    integrityFailures: integrity === 'ok' || integrity === 'absent' ? [] : [integrity],
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    seconds: (performance.now() - started) / 1000,
  };
}
