/**
 * Hand-built checkpoints for the resume and handoff tests: a typical session mid-way through its
 * task list, and a huge one at every limit of the checkpoint model.
 * @module
 */
import type { Checkpoint, ToolCallRecord } from './checkpoint.ts';
import type { CrashSignals } from '../context/signals.ts';

export const TYPICAL_REQUESTS = [
  'Add a `--json` flag to `shim status` so scripts can read the context level. Keep the text output unchanged.',
  'Also make it exit with code 2 when the level is L3, and document that in the README.\nUse the existing AppError machinery for bad flags.',
  'The CI failed on Windows: paths with backslashes break the transcript lookup. Fix that too, then run the whole test suite.',
];

export const TYPICAL_TASKS = [
  { id: '1', content: 'Add --json flag to shim status', status: 'completed' },
  { id: '2', content: 'Exit code 2 at level L3', status: 'completed' },
  { id: '3', content: 'Fix backslash paths in transcript lookup', status: 'in_progress' },
  { id: '4', content: 'Document --json and exit codes in README', status: 'pending' },
  { id: '5', content: 'Run the full test suite (npm test)', status: 'pending' },
];

export const TYPICAL_MODIFIED = ['src/cli/commands/status.ts', 'src/claude/sessions.ts'];

export function makeSignals(overrides: Partial<CrashSignals> = {}): CrashSignals {
  return {
    estimatedTotalTokens: 141_000,
    tokensPerMessage: 2_100,
    contextWindowUsage: 0.705,
    contextWindowRemaining: 59_000,
    messageCount: 88,
    toolCallCount: 61,
    toolCallsSinceCheckpoint: 3,
    messagesPerMinute: 1.4,
    sessionDuration: 62 * 60_000,
    avgResponseLatency: 9_500,
    timeSinceLastResponse: 20_000,
    latencyTrend: 'stable',
    toolFailureRate: 0.05,
    consecutiveToolFailures: 1,
    responseLatencyTrend: 'normal',
    errorPatterns: ['ENOENT: no such file or directory'],
    crashRisk: 'warning',
    riskFactors: ['context at 86% of the auto-compact threshold (warning ≥ 85%)'],
    compactThresholdUsage: 0.86,
    tokensUntilCompact: 23_000,
    ...overrides,
  };
}

function toolCall(
  tool: string,
  args: string,
  result: string,
  success: boolean,
  timestamp: string,
): ToolCallRecord {
  return { tool, args, result, success, latency: 1_200, timestamp };
}

/** A session mid-way through a 5-item task list: 2 modified files, a pending Bash, a blocker. */
export function makeTypicalCheckpoint(overrides: Partial<Checkpoint> = {}): Checkpoint {
  return {
    id: '7f3c2a9e-1b4d-4c8e-9a6f-2d5e8b1c0a47',
    sessionId: '4f8c1176-7025-4530-a860-c6fc4c63a150',
    checkpointNumber: 4,
    createdAt: '2026-02-12T04:10:00.000Z',
    triggeredBy: 'warning_zone',
    conversationState: {
      summary:
        'Added a --json flag and the L3 exit code to shim status; now fixing Windows path handling in the transcript lookup.',
      keyDecisions: [
        'The --json output mirrors the text fields one-to-one instead of inventing a new schema.',
        'Exit code 2 is reserved for L3 only; other levels exit 0.',
        'Normalise paths with path.win32/posix at the lookup boundary instead of everywhere.',
      ],
      currentContext:
        'Editing src/claude/sessions.ts: projectDirFor() must encode backslashes like Claude Code does.',
      recentMessages: [
        {
          role: 'user',
          content: TYPICAL_REQUESTS[2] ?? '',
          timestamp: '2026-02-12T04:02:11.000Z',
        },
        {
          role: 'assistant',
          content:
            'The lookup builds the project directory with a regex that only replaces forward slashes. I will switch it to replace both separators and add a test with a Windows path.',
          timestamp: '2026-02-12T04:09:40.000Z',
        },
      ],
      userRequests: [...TYPICAL_REQUESTS],
    },
    taskState: {
      operation: 'shim status --json, L3 exit code, Windows paths',
      phase: 'implementation',
      progress: 0.45,
      completedSteps: [
        'Added --json flag to status command',
        'Exit code 2 at L3, with a test',
        'Reproduced the Windows failure with a unit test',
      ],
      nextSteps: [
        'Replace both path separators in projectDirFor()',
        'Re-run src/claude tests',
        'Update README (flags and exit codes)',
        'Run npm test',
      ],
      blockers: [
        'npm test fails in src/claude/sessions.test.ts: expected C--work-repo, got C:\\work\\repo',
      ],
      items: TYPICAL_TASKS.map((t) => ({ ...t })),
    },
    fileState: {
      activeFiles: ['src/claude/sessions.ts', 'src/claude/sessions.test.ts', 'README.md'],
      modifiedFiles: [...TYPICAL_MODIFIED],
      stagedFiles: [],
      uncommittedDiff: [
        'diff --git a/src/cli/commands/status.ts b/src/cli/commands/status.ts',
        '--- a/src/cli/commands/status.ts',
        '+++ b/src/cli/commands/status.ts',
        '@@ -10,3 +10,6 @@',
        '+  if (flags.json) {',
        '+    return printJson(result);',
        '+  }',
        'diff --git a/src/claude/sessions.ts b/src/claude/sessions.ts',
        '--- a/src/claude/sessions.ts',
        '+++ b/src/claude/sessions.ts',
        '@@ -40,1 +40,1 @@',
        "-  return cwd.replace(/\\//g, '-');",
        "+  return cwd.replace(/[\\\\/:]/g, '-');",
        '',
      ].join('\n'),
      repoRoot: '/home/dev/shim',
      branch: 'feat/status-json',
      head: '3b1f0c9d2e4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c',
      snapshot: {
        ref: 'refs/shim/snapshots/7f3c2a9e-1b4d-4c8e-9a6f-2d5e8b1c0a47',
        commit: '9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d',
        head: '3b1f0c9d2e4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c',
        branch: 'feat/status-json',
      },
    },
    toolState: {
      activeSessions: [
        {
          type: 'terminal',
          id: 'bash-2',
          purpose: 'npm run dev watcher',
          startedAt: '2026-02-12T03:20:00.000Z',
          state: { cwd: '/home/dev/shim' },
        },
      ],
      pendingOperations: [
        {
          type: 'process',
          id: 'toolu_01PendingBashNpmTest',
          description: 'Bash `npm test -- src/claude`',
          command: 'npm test -- src/claude',
          startedAt: '2026-02-12T04:09:55.000Z',
          resumeWith: 'check whether the command finished before re-running it',
        },
      ],
      commands: [
        {
          command: 'git status --short',
          status: 'ok',
          exitCode: 0,
          at: '2026-02-12T04:04:00.000Z',
        },
        {
          command: 'npm test -- src/claude',
          status: 'running',
          exitCode: null,
          at: '2026-02-12T04:09:55.000Z',
        },
        {
          command: 'node --test src/claude/sessions.test.ts',
          status: 'failed',
          exitCode: 1,
          at: '2026-02-12T04:07:00.000Z',
        },
      ],
      lastFailure: {
        tool: 'Bash',
        input: 'node --test src/claude/sessions.test.ts',
        exitCode: 1,
        output:
          'Exit code 1\nAssertionError: expected C--work-repo, got C:\\work\\repo\n    at sessions.test.ts:41',
        at: '2026-02-12T04:07:00.000Z',
        callsSince: 1,
      },
      recentToolCalls: [
        toolCall(
          'Read',
          '{"file_path":"src/claude/sessions.ts"}',
          'export function projectDirFor…',
          true,
          '2026-02-12T04:05:00.000Z',
        ),
        {
          ...toolCall(
            'Bash',
            '{"command":"node --test src/claude/sessions.test.ts"}',
            'AssertionError: expected C--work-repo, got C:\\work\\repo',
            false,
            '2026-02-12T04:07:00.000Z',
          ),
          target: 'node --test src/claude/sessions.test.ts',
          kind: 'shell',
        },
        toolCall(
          'Edit',
          '{"file_path":"src/claude/sessions.ts"}',
          'ok',
          true,
          '2026-02-12T04:09:00.000Z',
        ),
      ],
    },
    signals: makeSignals(),
    userPreferences: { customInstructions: 'Never commit without asking. Prefer small diffs.' },
    source: {
      transcriptPath:
        '/home/dev/.claude/projects/-home-dev-shim/4f8c1176-7025-4530-a860-c6fc4c63a150.jsonl',
      transcriptLine: 812,
      cwd: '/home/dev/shim',
      model: 'claude-opus-4-6',
      cliVersion: '2.1.39',
      contextTokens: 141_000,
      compactThreshold: 164_000,
      level: 'L2',
      reason: null,
      agent: 'claude',
    },
    ...overrides,
  };
}

/** Every list at its checkpoint limit: 100 tasks, 20 tool calls with 500-char results, 10 KB diff, 10 requests of 1500 chars. */
export function makeHugeCheckpoint(): Checkpoint {
  const base = makeTypicalCheckpoint();
  const pad = (s: string, n: number) =>
    (s + ' ' + 'lorem ipsum dolor sit amet '.repeat(Math.ceil(n / 27))).slice(0, n);
  const requests = Array.from({ length: 10 }, (_, i) =>
    pad(`Request ${i + 1}: please change module-${i + 1}`, 1500),
  );
  const statuses = ['completed', 'in_progress', 'pending'];
  const items = Array.from({ length: 100 }, (_, i) => ({
    id: String(i + 1),
    content: `Migrate module-${i + 1} to the new store API`,
    status: i < 60 ? 'completed' : (statuses[i % 3] ?? 'pending'),
  }));
  const diffLines: string[] = [];
  for (let f = 0; diffLines.join('\n').length < 10 * 1024 - 200; f++) {
    diffLines.push(
      `diff --git a/src/module-${f}.ts b/src/module-${f}.ts`,
      `--- a/src/module-${f}.ts`,
      `+++ b/src/module-${f}.ts`,
      '@@ -1,4 +1,4 @@',
    );
    for (let l = 0; l < 8; l++)
      diffLines.push(
        `${l % 2 ? '+' : '-'}  const value${l} = compute(${l}); // line ${l} of module ${f}`,
      );
  }
  return {
    ...base,
    conversationState: {
      ...base.conversationState,
      summary: pad('Summary of a long session.', 1000),
      keyDecisions: Array.from({ length: 50 }, (_, i) => pad(`Decision ${i + 1}:`, 300)),
      currentContext: pad('Working through the migration.', 500),
      recentMessages: Array.from({ length: 10 }, (_, i) => ({
        role: i % 2 ? ('assistant' as const) : ('user' as const),
        content: pad(`Message ${i + 1}`, 1000),
        timestamp: `2026-02-12T04:0${i}:00.000Z`,
      })),
      userRequests: requests,
    },
    taskState: {
      ...base.taskState,
      completedSteps: Array.from({ length: 100 }, (_, i) => pad(`Step ${i + 1} done`, 300)),
      nextSteps: Array.from({ length: 20 }, (_, i) => pad(`Next ${i + 1}`, 300)),
      blockers: Array.from({ length: 10 }, (_, i) => pad(`Blocker ${i + 1}`, 300)),
      items,
    },
    fileState: {
      ...base.fileState,
      activeFiles: Array.from({ length: 200 }, (_, i) => `src/active/file-${i}.ts`),
      modifiedFiles: Array.from({ length: 200 }, (_, i) => `src/modified/file-${i}.ts`),
      stagedFiles: Array.from({ length: 50 }, (_, i) => `src/staged/file-${i}.ts`),
      uncommittedDiff: diffLines.join('\n'),
    },
    toolState: {
      activeSessions: base.toolState.activeSessions,
      pendingOperations: Array.from({ length: 10 }, (_, i) => ({
        type: 'process' as const,
        id: `toolu_pending_${i}`,
        description: pad(`Bash: long command ${i}`, 500),
        startedAt: '2026-02-12T04:09:55.000Z',
        resumeWith: '',
      })),
      recentToolCalls: Array.from({ length: 20 }, (_, i) =>
        toolCall(
          'Bash',
          pad(`{"command":"step ${i}"}`, 500),
          pad(`output ${i}`, 500),
          i % 4 !== 0,
          `2026-02-12T04:0${i % 10}:30.000Z`,
        ),
      ),
    },
    userPreferences: {
      customInstructions: pad('Custom instructions.', 2000),
      recentPreferences: pad('Recent preferences.', 2000),
    },
  };
}
