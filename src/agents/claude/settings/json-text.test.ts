import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AppError } from '../../../core/errors.ts';
import { detectJsonStyle, formatJson, parseSettingsText } from './json-text.ts';

describe('settings JSON text', () => {
  test('keeps the indentation unit, line endings, final newline and BOM', () => {
    const cases = [
      '{\n  "a": 1\n}\n',
      '{\n    "a": [\n        1\n    ]\n}',
      '{\n\t"a": {\n\t\t"b": true\n\t}\n}\n',
      '{\r\n   "a": "x"\r\n}\r\n',
      '\uFEFF{\n  "a": 1\n}\n',
      '{"a":1,"b":[2]}',
    ];
    for (const text of cases) {
      const value = parseSettingsText(text, 'settings.json');
      assert.equal(formatJson(value, detectJsonStyle(text)), text, JSON.stringify(text));
    }
  });

  test('an empty file counts as {} and gets the default style', () => {
    assert.deepEqual(parseSettingsText(' \n', 'settings.json'), {});
    assert.equal(formatJson({ a: 1 }, detectJsonStyle('')), '{\n  "a": 1\n}\n');
  });

  test('refuses what is not a JSON object, naming the file', () => {
    for (const text of ['{"a": 1,}', '// comment\n{}', '[1, 2]', '"x"']) {
      assert.throws(
        () => parseSettingsText(text, '/home/me/.claude/settings.json'),
        (error: unknown) =>
          error instanceof AppError &&
          error.code === 'CONFIG_INVALID' &&
          error.message.includes('/home/me/.claude/settings.json'),
      );
    }
  });
});
