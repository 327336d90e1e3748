import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hasCompletionMarker } from './completion.ts';
import {
  completionInstructions,
  composeContinuePrompt,
  composeFreshPrompt,
  CONTINUE_GOAL_CHARS,
  DEFAULT_COMPLETION_MARKER,
  SUMMARY_HEADING,
} from './loop-prompt.ts';

const GOAL = 'Make every test in test/parser pass without changing the public API.';

describe('completionInstructions', () => {
  test('the default marker is SHIM_LOOP_COMPLETE', () => {
    assert.equal(DEFAULT_COMPLETION_MARKER, 'SHIM_LOOP_COMPLETE');
  });

  test('shows the marker alone on its line, for when the goal is fully done', () => {
    const text = completionInstructions('SHIM_LOOP_COMPLETE', null);
    assert.match(text, /\n\nSHIM_LOOP_COMPLETE\n\n/);
    assert.match(text, /fully achieved/);
    assert.match(text, /alone on its line/);
  });

  test('forbids printing it otherwise and quoting it', () => {
    const text = completionInstructions('DONE', null);
    assert.match(text, /Print it only then/);
    assert.match(text, /not for partial progress|Not for partial progress/);
    assert.match(text, /never quote or mention it/);
  });

  test('requires the test command to pass when one is given', () => {
    const text = completionInstructions('DONE', 'npm test');
    assert.match(text, /`npm test` passes/);
    assert.doesNotMatch(completionInstructions('DONE', null), /passes/);
  });

  test('a command with backticks or newlines stays one intact code span', () => {
    const text = completionInstructions('DONE', 'npm `x`\n  test');
    assert.match(text, /`npm 'x' test` passes/);
  });

  test('an empty or multi-line marker falls back to the default', () => {
    assert.match(completionInstructions('', null), /\nSHIM_LOOP_COMPLETE\n/);
    assert.match(completionInstructions('A\nB', null), /\nSHIM_LOOP_COMPLETE\n/);
    assert.match(completionInstructions('  DONE  ', null), /\nDONE\n/);
  });

  test('the instructions themselves never count as a completion claim', () => {
    for (const marker of ['SHIM_LOOP_COMPLETE', 'DONE']) {
      const text = completionInstructions(marker, 'npm test');
      // The marker line is alone on purpose; the detector must see the rest as prose only.
      const withoutExample = text.replace(`\n\n${marker}\n\n`, '\n\n');
      assert.equal(hasCompletionMarker(withoutExample, marker), false);
    }
  });
});

describe('composeFreshPrompt', () => {
  test('puts the summary first under its heading, then the goal, then the instructions', () => {
    const prompt = composeFreshPrompt({
      goal: GOAL,
      summary: '## Goal\n…\n\n## Status\n- Iteration 4 of 20',
      marker: 'SHIM_LOOP_COMPLETE',
      testCommand: 'npm test',
    });
    assert.ok(prompt.startsWith(`${SUMMARY_HEADING}\n## Goal\n…`));
    const summaryAt = prompt.indexOf(SUMMARY_HEADING);
    const goalAt = prompt.indexOf(`## Goal\n${GOAL}`);
    const doneAt = prompt.indexOf('## When you are done');
    assert.ok(summaryAt === 0 && goalAt > summaryAt && doneAt > goalAt);
    assert.match(prompt, /fresh session/);
    assert.match(prompt, /`npm test` passes/);
  });

  test('without a summary starts with the goal', () => {
    for (const summary of [null, '', '   ']) {
      const prompt = composeFreshPrompt({ goal: GOAL, summary, marker: 'X', testCommand: null });
      assert.ok(prompt.startsWith(`## Goal\n${GOAL}\n\n`));
      assert.doesNotMatch(prompt, /Previous Session Context/);
      assert.match(prompt, /\n\nX\n\n/);
    }
  });

  test('keeps the whole goal, and says it runs unattended', () => {
    const goal = 'step. '.repeat(2000).trim();
    const prompt = composeFreshPrompt({ goal, summary: null, marker: 'X', testCommand: null });
    assert.ok(prompt.includes(goal));
    assert.match(prompt, /unattended/);
  });

  test('garbage input never throws', () => {
    const prompt = composeFreshPrompt({
      goal: 3 as unknown as string,
      summary: {} as unknown as string,
      marker: null as unknown as string,
      testCommand: 5 as unknown as string,
    });
    assert.match(prompt, /## Goal\n\(no goal given\)/);
    assert.match(prompt, /\nSHIM_LOOP_COMPLETE\n/);
    assert.doesNotThrow(() => composeFreshPrompt(null as never));
  });
});

describe('composeContinuePrompt', () => {
  test('asks to continue, reminds of the goal, and repeats the instructions', () => {
    const prompt = composeContinuePrompt({
      goal: GOAL,
      marker: 'SHIM_LOOP_COMPLETE',
      testCommand: null,
      note: null,
    });
    assert.ok(prompt.startsWith('Continue working on the goal'));
    assert.ok(prompt.includes(GOAL));
    assert.match(prompt, /## When you are done/);
    assert.ok(prompt.length < 1500, `${prompt.length} chars`);
  });

  test('includes the note between the reminder and the instructions', () => {
    const note = 'The test command failed:\n```\nnot ok 3\n```';
    const prompt = composeContinuePrompt({
      goal: GOAL,
      marker: 'M',
      testCommand: 'npm test',
      note,
    });
    const noteAt = prompt.indexOf(note);
    assert.ok(noteAt > prompt.indexOf(GOAL));
    assert.ok(noteAt < prompt.indexOf('## When you are done'));
  });

  test('an empty note is left out', () => {
    const withNone = composeContinuePrompt({
      goal: GOAL,
      marker: 'M',
      testCommand: null,
      note: null,
    });
    const withBlank = composeContinuePrompt({
      goal: GOAL,
      marker: 'M',
      testCommand: null,
      note: '  ',
    });
    assert.equal(withBlank, withNone);
  });

  test('the goal reminder is one paragraph of at most 500 characters', () => {
    const goal = `${'word '.repeat(300)}\n\nsecond paragraph`;
    const prompt = composeContinuePrompt({ goal, marker: 'M', testCommand: null, note: null });
    const reminder = prompt.split('\n\n')[0] ?? '';
    const goalPart = reminder.slice(reminder.indexOf('the goal is: ') + 'the goal is: '.length);
    assert.equal(goalPart.length, CONTINUE_GOAL_CHARS);
    assert.ok(goalPart.endsWith('…'));
    assert.doesNotMatch(reminder, /\n/);
  });

  test('garbage input never throws', () => {
    const prompt = composeContinuePrompt({
      goal: undefined as unknown as string,
      marker: '',
      testCommand: null,
      note: 42 as unknown as string,
    });
    assert.ok(prompt.startsWith('Continue working on the goal of this session.'));
    assert.match(prompt, /\nSHIM_LOOP_COMPLETE\n/);
  });
});

describe('composeFreshPrompt with claude-mem', () => {
  test('installed: the session is told to search it first, by the project name and the checkpoints', () => {
    const input = { goal: 'Ship it.', summary: null, marker: 'DONE', testCommand: null };
    const withMemory = composeFreshPrompt({ ...input, memory: { project: 'spot`ter\n' } });
    assert.match(
      withMemory,
      /## Goal\nShip it\.\n\n## Recent context in claude-mem\nclaude-mem keeps observations from earlier sessions of `spotter`, among them shim's checkpoints \("Context Checkpoint …"\)\. Before you start, search it/,
    );
    assert.doesNotMatch(composeFreshPrompt(input), /claude-mem/);
    assert.doesNotMatch(composeFreshPrompt({ ...input, memory: null }), /claude-mem/);
  });
});
