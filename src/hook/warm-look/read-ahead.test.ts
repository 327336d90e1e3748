import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, statSync, writeFileSync, type watch } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { makeTempDir } from '../../../test/helpers/fixtures.ts';
import { claudeAgent } from '../../../test/helpers/agents.ts';
import {
  toJsonl,
  toolCallLines,
  userPromptLine,
} from '../../../test/helpers/transcript-builders.ts';
import { loadCursor } from '../../store/cache/cursor-cache.ts';
import { WriteBuffer } from '../../store/home/write-buffer.ts';
import { ReadAhead } from './read-ahead.ts';

/** node:fs's watch on a machine whose inotify instances are all taken (editors, agents, tools). */
const noInstanceLeft = (() => {
  throw Object.assign(new Error('EMFILE: too many open files, watch'), { code: 'EMFILE' });
}) as unknown as typeof watch;

describe('reading ahead', () => {
  test('with no inotify instance to be had, the transcript is looked at by polling and folded as it grows', async () => {
    const dir = makeTempDir('shim-read-ahead-');
    const home = join(dir, 'shim');
    mkdirSync(home);
    const transcript = join(dir, 'session.jsonl');
    writeFileSync(
      transcript,
      toJsonl([userPromptLine('Port the parser.'), ...toolCallLines(1, 40_000, 'Read', {})]),
    );
    let folded = 0;
    // As the warm look's server: the fold writes into its buffer, saved when it says it folded.
    const buffer = await WriteBuffer.create();
    const ahead = new ReadAhead(
      home,
      buffer,
      () => {
        folded++;
        buffer.flush();
      },
      noInstanceLeft,
    );
    try {
      ahead.follow(transcript, claudeAgent);
      appendFileSync(transcript, toJsonl(toolCallLines(2, 41_000, 'Read', {})));
      const size = statSync(transcript).size;
      // Waited for, not timed: the fold's cursor reaches the bytes written after the follow (the
      // limit only turns a read-ahead that never comes into a failure).
      const limit = Date.now() + 30_000;
      while ((loadCursor(home, transcript)?.offset ?? 0) < size) {
        assert.ok(Date.now() < limit, 'the appended response was never folded');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.ok(folded > 0);
    } finally {
      ahead.close();
    }
  });
});
