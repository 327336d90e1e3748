#!/usr/bin/env node
// A stand-in for the Claude Code CLI in headless stream-json mode, for the `shim loop` tests.
//
// Every line it prints is a clone of a line the real CLI 2.1.330 printed (test/fixtures/
// stream-json/) with ids, content, usage and timestamps overridden, so the supervisor is tested
// against real shapes rather than shapes we imagine. What it does is scripted by a scenario file:
//
//   FAKE_CLAUDE_SCENARIO=<file.json>  { "runs": Run[], "default"?: Run }; invocation k plays
//                                     runs[k] (k counted across processes in <file>.state)
//   FAKE_CLAUDE_LOG=<file.jsonl>      one line per invocation: argv, prompt, resume, pid, pgid…
//
// It also appends real-format transcript entries under $CLAUDE_CONFIG_DIR (or ~/.claude)
// /projects/<encoded cwd>/<session>.jsonl, so checkpoint code has a transcript to read.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const VERSION = '2.1.330';
const DEFAULT_MODEL = 'claude-opus-5-5';
const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'stream-json');

// ---------------------------------------------------------------------------------------------
// Command line, parsed the way the real CLI reads the flags the supervisor passes.

const VALUE_FLAGS = new Set([
  '--output-format',
  '--resume',
  '-r',
  '--session-id',
  '--model',
  '--max-budget-usd',
  '--permission-mode',
  '--append-system-prompt',
  '--settings',
  '--allowedTools',
  '--tools',
  '--max-turns',
]);

function parseArgs(argv) {
  const flags = new Map();
  const positionals = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) {
      flags.set(arg.slice(0, eq), arg.slice(eq + 1));
    } else if (VALUE_FLAGS.has(arg)) {
      flags.set(arg, argv[i + 1] ?? '');
      i++;
    } else if (arg === '-p' || arg === '--print') {
      // -p is a boolean in the real CLI; the prompt is the next positional (or stdin).
      flags.set('--print', true);
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith('-')) {
        positionals.push(next);
        i++;
      }
    } else {
      flags.set(arg, true);
    }
  }
  const str = (name) => (typeof flags.get(name) === 'string' ? flags.get(name) : null);
  return {
    print: flags.has('--print'),
    version: flags.has('--version') || flags.has('-v'),
    verbose: flags.has('--verbose'),
    outputFormat: str('--output-format'),
    resume: str('--resume') ?? str('-r'),
    sessionId: str('--session-id'),
    prompt: positionals.length ? positionals.join(' ') : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Output: synchronous writes, so lines are whole and nothing is lost on process.exit().

const sleepSync = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function writeAll(fd, text) {
  const buffer = Buffer.from(text);
  let offset = 0;
  while (offset < buffer.length) {
    try {
      offset += writeSync(fd, buffer, offset);
    } catch (error) {
      if (error.code === 'EAGAIN') {
        sleepSync(1); // a non-blocking pipe is full: wait for the reader
        continue;
      }
      if (error.code === 'EPIPE') process.exit(0); // the reader is gone; nobody to tell
      throw error;
    }
  }
}

const emit = (event) => writeAll(1, `${JSON.stringify(event)}\n`);

// ---------------------------------------------------------------------------------------------
// Captured lines, by kind.

function loadTemplates() {
  const lines = [];
  for (const name of readdirSync(FIXTURES).sort()) {
    if (!name.endsWith('.jsonl')) continue;
    for (const text of readFileSync(join(FIXTURES, name), 'utf8').split('\n')) {
      if (text.trim()) lines.push({ file: name, value: JSON.parse(text) });
    }
  }
  const find = (file, test) => {
    const found = lines.find((l) => l.file === file && test(l.value));
    if (!found) throw new Error(`fake-claude: no template in ${file}`);
    return found.value;
  };
  const blockType = (v) => v.message?.content?.[0]?.type;
  const isAssistant = (v) => v.type === 'assistant';
  const isResult = (v) => v.type === 'result';
  return {
    init: find('tool-calls.jsonl', (v) => v.type === 'system' && v.subtype === 'init'),
    text: find('tool-calls.jsonl', (v) => isAssistant(v) && blockType(v) === 'text'),
    toolUse: find('tool-calls.jsonl', (v) => isAssistant(v) && blockType(v) === 'tool_use'),
    toolResult: find(
      'tool-calls.jsonl',
      (v) => v.type === 'user' && !v.message.content[0].is_error,
    ),
    toolError: find('tool-calls.jsonl', (v) => v.type === 'user' && v.message.content[0].is_error),
    result: find('tool-calls.jsonl', isResult),
    error429: find('api-error-429.jsonl', isAssistant),
    error429Result: find('api-error-429.jsonl', isResult),
    error529: find('api-error-529.jsonl', isAssistant),
    error529Result: find('api-error-529.jsonl', isResult),
    rateLimit: find('usage-limit.jsonl', (v) => v.type === 'rate_limit_event'),
    usageLimit: find('usage-limit.jsonl', isAssistant),
    usageLimitResult: find('usage-limit.jsonl', isResult),
    compacting: find('auto-compact.jsonl', (v) => v.subtype === 'status' && v.status),
    compacted: find('auto-compact.jsonl', (v) => v.subtype === 'status' && !v.status),
    boundary: find('auto-compact.jsonl', (v) => v.subtype === 'compact_boundary'),
    summary: find('auto-compact.jsonl', (v) => v.type === 'user' && v.isSynthetic === true),
    backgroundTasks: find(
      'background-task.jsonl',
      (v) => v.subtype === 'background_tasks_changed' && v.tasks.length > 0,
    ),
  };
}

const clone = (value) => structuredClone(value);
const hex = (n) => randomUUID().replaceAll('-', '').slice(0, n);

// ---------------------------------------------------------------------------------------------
// Scenario and bookkeeping files.

function readJson(path, fallback) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return fallback;
  }
}

/** Takes the next invocation number from `<scenario>.state` (written by rename, never torn). */
function takeInvocation(scenarioPath) {
  if (!scenarioPath) return 0;
  const statePath = `${scenarioPath}.state`;
  const state = readJson(statePath, {});
  const invocation = Number.isInteger(state.invocations) ? state.invocations : 0;
  const temp = `${statePath}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify({ invocations: invocation + 1 }));
  renameSync(temp, statePath);
  return invocation;
}

const NOTHING_TO_DO = { actions: [{ respond: { text: 'Nothing to do.', context: 10000 } }] };

function pickRun(scenarioPath, invocation) {
  if (!scenarioPath) return NOTHING_TO_DO;
  const scenario = JSON.parse(readFileSync(scenarioPath, 'utf8'));
  return scenario.runs?.[invocation] ?? scenario.default ?? NOTHING_TO_DO;
}

/** The process group, field 5 of /proc/self/stat (after the parenthesised command name). */
function readPgid() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const pgid = Number(fields[2]);
    return Number.isInteger(pgid) ? pgid : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// The transcript Claude Code would write for this session.

function openTranscript(cwd, sessionId) {
  const configDir = process.env.CLAUDE_CONFIG_DIR?.trim()
    ? resolve(process.env.CLAUDE_CONFIG_DIR.trim())
    : join(process.env.HOME || homedir(), '.claude');
  const projectDir = join(configDir, 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'));
  const path = join(projectDir, `${sessionId}.jsonl`);
  mkdirSync(projectDir, { recursive: true });
  // A resumed session continues the chain of entries already there.
  let parentUuid = null;
  try {
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    parentUuid = JSON.parse(lines[lines.length - 1]).uuid ?? null;
  } catch {
    // a new session
  }
  const append = (entry) => {
    const line = {
      parentUuid,
      isSidechain: false,
      userType: 'external',
      cwd,
      sessionId,
      version: VERSION,
      ...entry,
      timestamp: entry.timestamp ?? new Date().toISOString(),
    };
    appendFileSync(path, `${JSON.stringify(line)}\n`);
    if (entry.uuid) parentUuid = entry.uuid;
  };
  return { path, projectDir, append, lastUuid: () => parentUuid };
}

// ---------------------------------------------------------------------------------------------
// One session's playback.

function formatResetTime(epochSeconds) {
  const at = new Date(epochSeconds * 1000);
  const hours = at.getHours();
  const minutes = at.getMinutes();
  const clock = `${hours % 12 || 12}${minutes ? `:${String(minutes).padStart(2, '0')}` : ''}`;
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return `${clock}${hours < 12 ? 'am' : 'pm'} (${zone})`;
}

/** Splits a context size into the three usage fields the real API reports; they sum exactly. */
function splitContext(context) {
  const total = Math.max(0, Math.round(context));
  const input = Math.round(total * 0.03);
  const cacheCreation = Math.round(total * 0.02);
  return {
    input_tokens: input,
    cache_creation_input_tokens: cacheCreation,
    cache_read_input_tokens: total - input - cacheCreation,
  };
}

function createSession({ templates, sessionId, model, cwd, transcript }) {
  const startedAt = Date.now();
  const totals = { input: 0, cacheCreation: 0, cacheRead: 0, output: 0 };
  let responses = 0;
  let lastContext = 0;
  let lastText = '';

  const stamp = (event) => {
    event.session_id = sessionId;
    event.uuid = randomUUID();
    if ('timestamp' in event) event.timestamp = new Date().toISOString();
    return event;
  };

  function emitInit() {
    const init = clone(templates.init);
    init.cwd = cwd;
    init.original_cwd = cwd;
    init.model = model;
    init.claude_code_version = VERSION;
    init.memory_paths = { auto: join(transcript.projectDir, 'memory') + '/' };
    emit(stamp(init));
  }

  function recordPrompt(prompt) {
    transcript.append({
      type: 'user',
      message: { role: 'user', content: prompt },
      uuid: randomUUID(),
      permissionMode: 'bypassPermissions',
    });
  }

  function emitToolResult(toolUse, tool, assistantUuid) {
    const isError = tool.isError === true;
    const text =
      tool.result ?? (isError ? 'Exit code 1' : `(${tool.name} completed with no output)`);
    const toolUseResult =
      tool.name === 'Write'
        ? { type: 'create', filePath: tool.input.file_path, content: tool.input.content }
        : isError
          ? `Error: ${text}`
          : { stdout: text, stderr: '', interrupted: false, isImage: false };
    const event = clone(isError ? templates.toolError : templates.toolResult);
    event.message.content = [
      { tool_use_id: toolUse.id, type: 'tool_result', content: text, is_error: isError },
    ];
    event.tool_use_result = toolUseResult;
    event.tool_result_meta = [{ ...event.tool_result_meta?.[0], id: toolUse.id }];
    event.parent_tool_use_id = null;
    emit(stamp(event));
    transcript.append({
      type: 'user',
      message: { role: 'user', content: event.message.content },
      uuid: event.uuid,
      toolUseResult,
      sourceToolAssistantUUID: assistantUuid,
    });
  }

  /** One model response: an assistant event per content block, then the tool's result. */
  function respond({ text, context, output, tool }) {
    const contextTokens = typeof context === 'number' ? context : lastContext;
    const usage = { ...splitContext(contextTokens), output_tokens: output ?? 1 };
    const messageId = `msg_fake_${hex(20)}`;
    const requestId = `req_fake_${hex(20)}`;
    const blocks = [];
    if (text !== undefined || !tool) blocks.push({ type: 'text', text: text ?? '' });
    const toolUse = tool && { type: 'tool_use', id: `toolu_fake_${hex(20)}`, name: tool.name };
    if (toolUse) blocks.push({ ...toolUse, input: tool.input ?? {} });
    let assistantUuid = null;
    for (const block of blocks) {
      const event = clone(block.type === 'text' ? templates.text : templates.toolUse);
      Object.assign(event.message, { id: messageId, model, content: [block], usage });
      event.request_id = requestId;
      event.parent_tool_use_id = null;
      emit(stamp(event));
      assistantUuid = event.uuid;
      transcript.append({
        type: 'assistant',
        message: {
          model,
          id: messageId,
          type: 'message',
          role: 'assistant',
          content: [block],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...usage, service_tier: 'standard' },
        },
        requestId,
        uuid: event.uuid,
      });
    }
    responses++;
    totals.input += usage.input_tokens;
    totals.cacheCreation += usage.cache_creation_input_tokens;
    totals.cacheRead += usage.cache_read_input_tokens;
    totals.output += usage.output_tokens;
    lastContext = contextTokens;
    if (text) lastText = text;
    if (toolUse) emitToolResult(toolUse, { input: {}, ...tool }, assistantUuid);
  }

  function write({ path, content }) {
    const target = resolve(cwd, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
    respond({
      context: lastContext + 200,
      tool: {
        name: 'Write',
        input: { file_path: target, content },
        result: `File created successfully at: ${target}`,
      },
    });
  }

  function compact({ preTokens, postTokens }) {
    const post = postTokens ?? Math.min(preTokens, 2500);
    const precedingUuid = transcript.lastUuid();
    emit(stamp(clone(templates.compacting)));
    emit(stamp(clone(templates.compacted)));
    const boundary = clone(templates.boundary);
    const summary = clone(templates.summary);
    Object.assign(boundary.compact_metadata, {
      trigger: 'auto',
      pre_tokens: preTokens,
      post_tokens: post,
      cumulative_dropped_tokens: preTokens - post,
    });
    // They name the captured session's entries, which this session does not have.
    delete boundary.compact_metadata.preserved_segment;
    delete boundary.compact_metadata.preserved_messages;
    boundary.logical_parent_uuid = precedingUuid;
    emit(stamp(boundary));
    transcript.append({
      parentUuid: null,
      logicalParentUuid: precedingUuid,
      type: 'system',
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      isMeta: false,
      level: 'info',
      uuid: boundary.uuid,
      compactMetadata: { trigger: 'auto', preTokens, postTokens: post },
    });
    const summaryText = `This session is being continued from a previous conversation that ran out of context.\n\nSummary:\nFake summary of the conversation so far.\n\nIf you need specific details from before compaction, read the full transcript at: ${transcript.path}`;
    summary.message.content = [{ type: 'text', text: summaryText }];
    emit(stamp(summary));
    transcript.append({
      type: 'user',
      message: { role: 'user', content: summaryText },
      isCompactSummary: true,
      isVisibleInTranscriptOnly: true,
      uuid: summary.uuid,
    });
    lastContext = post;
  }

  function costSoFar() {
    return Math.round(responses * 0.001 * 1e6) / 1e6;
  }

  function fillResult(event, { text, isError, costUsd }) {
    event.result = text;
    event.is_error = isError;
    event.total_cost_usd = costUsd;
    event.num_turns = Math.max(responses, 1);
    event.duration_ms = Date.now() - startedAt;
    event.duration_api_ms = event.duration_ms;
    Object.assign(event.usage, {
      input_tokens: totals.input,
      cache_creation_input_tokens: totals.cacheCreation,
      cache_read_input_tokens: totals.cacheRead,
      output_tokens: totals.output,
    });
    if (responses > 0) {
      const modelUsage = {
        [model]: {
          ...Object.values(templates.result.modelUsage)[0],
          inputTokens: totals.input,
          outputTokens: totals.output,
          cacheReadInputTokens: totals.cacheRead,
          cacheCreationInputTokens: totals.cacheCreation,
          costUSD: costUsd,
          canonicalModel: model,
        },
      };
      event.modelUsage = modelUsage;
      event.model_usage_since_last_result = modelUsage;
    }
    return stamp(event);
  }

  /** The live background set (`background_tasks_changed`): `descriptions` replaces it. */
  function background(descriptions) {
    const event = clone(templates.backgroundTasks);
    const [task] = event.tasks;
    event.tasks = descriptions.map((description) => ({
      ...task,
      task_id: hex(9),
      run_id: `${hex(9)}-${hex(8)}`,
      description,
    }));
    emit(stamp(event));
  }

  function result({ text, isError, costUsd } = {}) {
    const event = clone(templates.result);
    emit(
      fillResult(event, {
        text: text ?? lastText,
        isError: isError === true,
        costUsd: costUsd ?? costSoFar(),
      }),
    );
  }

  /** Claude Code's synthetic error message, as the transcript keeps it. */
  function recordApiError(event) {
    transcript.append({
      type: 'assistant',
      message: event.message,
      requestId: event.request_id,
      uuid: event.uuid,
      error: event.error,
      isApiErrorMessage: true,
    });
  }

  function apiError({ status }) {
    const overloaded = status >= 500;
    const event = clone(overloaded ? templates.error529 : templates.error429);
    event.message.id = randomUUID();
    event.api_error_status = status;
    emit(stamp(event));
    recordApiError(event);
    const text = event.message.content[0].text;
    const final = clone(overloaded ? templates.error529Result : templates.error429Result);
    final.api_error_status = status;
    emit(fillResult(final, { text, isError: true, costUsd: costSoFar() }));
  }

  function usageLimit({ resetsAt, text }) {
    const message = text ?? `You've hit your limit · resets ${formatResetTime(resetsAt)}`;
    const rateLimit = clone(templates.rateLimit);
    rateLimit.rate_limit_info.resetsAt = resetsAt;
    emit(stamp(rateLimit));
    const event = clone(templates.usageLimit);
    event.message.id = randomUUID();
    event.message.content = [{ type: 'text', text: message }];
    event.api_error_params.rate_limit_info.resetsAt = resetsAt;
    emit(stamp(event));
    recordApiError(event);
    const final = clone(templates.usageLimitResult);
    emit(fillResult(final, { text: message, isError: true, costUsd: costSoFar() }));
  }

  return {
    emitInit,
    recordPrompt,
    respond,
    write,
    compact,
    background,
    result,
    apiError,
    usageLimit,
  };
}

// ---------------------------------------------------------------------------------------------
// Main.

let ignoreTerm = false;
process.on('SIGTERM', () => {
  if (!ignoreTerm) process.exit(143); // like the real CLI: no result line
});
process.on('SIGINT', () => process.exit(130));

const hang = () => {
  setInterval(() => {}, 1 << 30);
  return new Promise(() => {});
};

async function play(session, run) {
  for (const action of run.actions ?? []) {
    const [kind, spec] = Object.entries(action)[0] ?? [];
    switch (kind) {
      case 'respond':
        session.respond(spec);
        break;
      case 'write':
        session.write(spec);
        break;
      case 'sleep':
        await new Promise((done) => setTimeout(done, spec));
        break;
      case 'waitForFile':
        // Goes on once the test has made the file: a step that follows what the test saw
        // (a page loaded, a reading taken), where a sleep would guess how long that takes.
        while (!existsSync(spec)) await new Promise((done) => setTimeout(done, 20));
        break;
      case 'hang':
        ignoreTerm = spec?.ignoreTerm === true;
        return hang();
      case 'spawnGrandchild': {
        // Same process group as this process (not detached): killing the group must reach it.
        const child = spawn('sleep', ['600'], { stdio: 'ignore' });
        child.unref();
        mkdirSync(dirname(resolve(spec.pidFile)), { recursive: true });
        writeFileSync(spec.pidFile, String(child.pid));
        break;
      }
      case 'crash':
        if (spec?.stderr)
          writeAll(2, spec.stderr.endsWith('\n') ? spec.stderr : `${spec.stderr}\n`);
        process.exit(spec?.exitCode ?? 1);
        break;
      case 'apiError':
        session.apiError(spec);
        process.exit(1);
        break;
      case 'usageLimit':
        session.usageLimit(spec);
        process.exit(1);
        break;
      case 'compact':
        session.compact(spec);
        break;
      case 'background':
        session.background(spec);
        break;
      case 'result':
        session.result(spec);
        process.exit(run.exitCode ?? 0);
        break;
      default:
        writeAll(2, `fake-claude: unknown action ${JSON.stringify(action)}\n`);
        process.exit(2);
    }
  }
  session.result();
  process.exit(run.exitCode ?? 0);
}

async function main() {
  const argv = process.argv.slice(2);
  const args = parseArgs(argv);
  if (args.version) {
    writeAll(1, `${VERSION} (Claude Code)\n`);
    process.exit(0);
  }
  if (!args.print) {
    writeAll(2, 'fake-claude: only --print mode is supported\n');
    process.exit(2);
  }
  if (args.outputFormat === 'stream-json' && !args.verbose) {
    writeAll(2, 'Error: When using --print, --output-format=stream-json requires --verbose\n');
    process.exit(1);
  }
  const prompt = args.prompt ?? readFileSync(0, 'utf8');
  const templates = loadTemplates();
  const scenarioPath = process.env.FAKE_CLAUDE_SCENARIO || null;
  const invocation = takeInvocation(scenarioPath);
  const run = pickRun(scenarioPath, invocation);
  const sessionId = args.resume ?? args.sessionId ?? run.sessionId ?? randomUUID();
  const cwd = process.cwd();
  if (process.env.FAKE_CLAUDE_LOG) {
    const entry = {
      invocation,
      argv,
      prompt,
      resume: args.resume,
      sessionId,
      cwd,
      pid: process.pid,
      pgid: readPgid(),
      // What shim loop gives the session it runs (its /loop command reads them).
      ...(process.env.SHIM_LOOP_RUN_ID
        ? {
            loop: {
              runId: process.env.SHIM_LOOP_RUN_ID,
              iteration: process.env.SHIM_LOOP_ITERATION ?? null,
            },
          }
        : {}),
      at: new Date().toISOString(),
    };
    appendFileSync(process.env.FAKE_CLAUDE_LOG, `${JSON.stringify(entry)}\n`);
  }
  const transcript = openTranscript(cwd, sessionId);
  const model = run.model ?? DEFAULT_MODEL;
  const session = createSession({ templates, sessionId, model, cwd, transcript });
  session.emitInit();
  session.recordPrompt(prompt);
  await play(session, run);
}

await main();
