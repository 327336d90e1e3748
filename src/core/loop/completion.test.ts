import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hasCompletionMarker } from './completion.ts';

const M = 'SHIM_LOOP_COMPLETE';
const yes = (text: string, marker = M): void =>
  assert.equal(hasCompletionMarker(text, marker), true, JSON.stringify(text));
const no = (text: string, marker = M): void =>
  assert.equal(hasCompletionMarker(text, marker), false, JSON.stringify(text));

describe('hasCompletionMarker', () => {
  test('the marker alone on a line counts', () => {
    yes(M);
    yes(`All tests pass.\n\n${M}`);
    yes(`${M}\n`);
    yes(`Done.\r\n${M}\r\n`);
    yes(`Summary first.\n${M}\nThanks.`);
  });

  test('surrounding whitespace, emphasis and backticks are allowed', () => {
    yes(`   ${M}\t`);
    yes(`**${M}**`);
    yes(`*${M}*`);
    yes(`\`${M}\``);
    yes(`**\`${M}\`**`);
  });

  test('<promise>MARKER</promise> counts, also wrapped in emphasis or with spaces', () => {
    yes(`<promise>${M}</promise>`);
    yes(`  <promise> ${M} </promise>  `);
    yes(`**<promise>${M}</promise>**`);
    yes(`<PROMISE>${M}</PROMISE>`);
  });

  test('a fenced code block holding only the marker counts', () => {
    yes(`All done.\n\`\`\`\n${M}\n\`\`\``);
    yes(`\`\`\`text\n\n${M}\n\n\`\`\``);
  });

  test('a mention inside a sentence does not count', () => {
    no(`I will print ${M} when the tests pass.`);
    no(`Not yet: ${M} only after the refactor.`);
    no(`The loop stops on ${M}.`);
    no(`${M} will be printed later`);
    no(`<promise>${M}</promise> once the tests pass`);
    no(`${M}.`);
  });

  test('a negated or struck-through marker does not count', () => {
    no(`NOT ${M}`);
    no(`not ${M}`);
    no(`~~${M}~~`);
    no(`The goal is not done, so I will not print:\n\n${M}`);
    no(`I won't output:\n${M}`);
  });

  test('a negation in an earlier sentence of the lead-in line does not block', () => {
    yes(`I didn't need to touch the API. All tests pass:\n${M}`);
    yes(`Everything is done:\n${M}`);
  });

  test('a quote does not count: blockquotes and larger code blocks', () => {
    no(`> ${M}`);
    no(`The instructions said:\n\n> Output\n>\n> ${M}`);
    no(`\`\`\`\nif (line === '${M}') stop();\n${M}\n\`\`\``);
  });

  test('the marker must match exactly, not as part of another word', () => {
    no(`${M}_PENDING`);
    no(`X${M}`);
    no(M.toLowerCase());
    no('SHIM LOOP COMPLETE');
  });

  test('custom markers work, including ones with emphasis characters of their own', () => {
    yes('DONE', 'DONE');
    yes('  **DONE**', 'DONE');
    yes('_DONE_', '_DONE_');
    no('I am DONE', 'DONE');
    yes('<promise>ALL TESTS GREEN</promise>', 'ALL TESTS GREEN');
  });

  test('an empty marker, empty text or garbage is false', () => {
    no(M, '');
    no(M, '   ');
    no('', M);
    no('\n\n', M);
    assert.equal(hasCompletionMarker(null as unknown as string, M), false);
    assert.equal(hasCompletionMarker(M, null as unknown as string), false);
    assert.equal(hasCompletionMarker(42 as unknown as string, M), false);
  });

  test('a marker that is only emphasis characters is treated as empty', () => {
    no('**', '**');
  });

  test('handles large output quickly', () => {
    const big = `${'lorem ipsum dolor\n'.repeat(200_000)}${M}\n`;
    yes(big);
  });
});
