import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ADAPTER } from '../../../test/helpers/agents.ts';
import { MomentTracker } from './moment-truth.ts';

/** Entries as each agent's reader parses its log: a command that failed, then a file read. */
const ENTRIES = {
  claude: [
    {
      kind: 'assistant',
      toolUses: [{ id: 'u1', name: 'Bash', input: { command: 'make check' } }],
    },
    { kind: 'user', toolResults: [{ toolUseId: 'u1', isError: true, text: 'Exit code 2\nboom' }] },
    { kind: 'assistant', toolUses: [{ id: 'u2', name: 'Read', input: { file_path: '/a' } }] },
    // A subagent's call is not the session's moment.
    {
      kind: 'assistant',
      sidechain: true,
      toolUses: [{ id: 's', name: 'Bash', input: { command: 'ls' } }],
    },
  ],
  codex: [
    {
      type: 'response_item',
      payload: {
        type: 'function_call',
        name: 'shell',
        call_id: 'c1',
        arguments: '{"command":["bash","-lc","make check"]}',
      },
    },
    {
      type: 'response_item',
      payload: {
        type: 'function_call_output',
        call_id: 'c1',
        output: 'Exit code: 2\nOutput:\nboom',
      },
    },
    {
      type: 'response_item',
      payload: {
        type: 'function_call',
        name: 'read_file',
        call_id: 'c2',
        arguments: '{"file_path":"/a"}',
      },
    },
  ],
  gemini: [
    {
      kind: 'message',
      type: 'gemini',
      toolCalls: [
        {
          id: 'g1',
          name: 'run_shell_command',
          args: { command: 'make check' },
          status: 'success',
          resultText: 'Output: boom\nExit Code: 2',
        },
        { id: 'g2', name: 'read_file', args: { file_path: '/a' } },
      ],
    },
    // The user's own message carries no calls.
    {
      kind: 'message',
      type: 'user',
      toolCalls: [{ id: 'x', name: 'run_shell_command', args: { command: 'ls' } }],
    },
  ],
} as const;

for (const agent of ['claude', 'codex', 'gemini'] as const) {
  test(`${agent}: its own reader says the command, the failure and the inputs' fields`, () => {
    const tracker = new MomentTracker(ADAPTER[agent].moments);
    for (const entry of ENTRIES[agent]) tracker.see(entry);
    const truth = tracker.truth();
    assert.deepEqual(truth.commands, ['make check']);
    assert.match(truth.newestFailure ?? '', /boom/);
    assert.deepEqual([...truth.inputKeys].sort(), ['command', 'file_path']);
  });
}

test("another agent's entries say nothing to a reader", () => {
  const tracker = new MomentTracker(ADAPTER.gemini.moments);
  for (const entry of [...ENTRIES.claude, ...ENTRIES.codex]) tracker.see(entry);
  assert.deepEqual(tracker.truth(), { commands: [], newestFailure: null, inputKeys: [] });
});
