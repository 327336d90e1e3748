import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  chooseIssue,
  findIssueInBranch,
  findIssueInText,
  formatIssue,
  parseIssueArgument,
} from './issue-ref.ts';

describe('issue references', () => {
  test('branches name Linear keys and GitHub numbers', () => {
    const cases: Array<[string, string | null]> = [
      ['feature/ANV-123-add-login', 'ANV-123'],
      ['feature/tst-42-reach-l2', 'TST-42'],
      ['ANV-7', 'ANV-7'],
      ['123-fix-login', '#123'],
      ['fix/123-login', '#123'],
      ['issue-88', '#88'],
      ['gh-9-typo', '#9'],
      ['main', null],
      ['release/2.1', null],
      ['utf-8-fix', null],
      ['feature/login', null],
    ];
    for (const [branch, expected] of cases) {
      const found = findIssueInBranch(branch);
      assert.equal(found ? formatIssue(found) : null, expected, branch);
    }
  });

  test('requests: URLs first, then keys, then #numbers; look-alikes are not issues', () => {
    assert.deepEqual(findIssueInText('see https://github.com/acme/api/issues/17 please'), {
      tracker: 'github',
      key: '17',
      repo: 'acme/api',
    });
    assert.deepEqual(findIssueInText('https://linear.app/acme/issue/ENG-5/login-broken'), {
      tracker: 'linear',
      key: 'ENG-5',
    });
    assert.equal(formatIssue(findIssueInText('Fix ANV-123 before Friday')!), 'ANV-123');
    assert.equal(formatIssue(findIssueInText('closes acme/api#44')!), 'acme/api#44');
    assert.equal(formatIssue(findIssueInText('work on #12 now')!), '#12');
    for (const text of ['encode as UTF-8', 'see RFC-7231', 'color #fff', 'a#1', 'SHA-256 sums'])
      assert.equal(findIssueInText(text), null, text);
  });

  test('shim link takes a number, #number, a key or a URL', () => {
    assert.equal(formatIssue(parseIssueArgument('42')!), '#42');
    assert.equal(formatIssue(parseIssueArgument('#42')!), '#42');
    assert.equal(formatIssue(parseIssueArgument('ANV-9')!), 'ANV-9');
    assert.equal(parseIssueArgument('nothing'), null);
  });

  test('text names an issue only when configured: a key quoted in a prompt is not a wish to post there', () => {
    assert.equal(chooseIssue({ branch: 'main', requests: ['see TXT-88 for the format'] }), null);
    assert.equal(chooseIssue({ goal: 'finish EE-5' }), null);
    assert.equal(
      chooseIssue({ inherited: { tracker: 'github', key: '5' }, requests: ['TXT-88'] })?.source,
      'inherited',
    );
    assert.equal(
      chooseIssue({ branch: 'main', requests: ['see TXT-88'], fromText: true })?.source,
      'request',
    );
  });

  test('a link wins, then the branch, the newest request, what was inherited, the goal', () => {
    const linked = { tracker: 'linear' as const, key: 'LL-1' };
    assert.equal(chooseIssue({ linked, branch: 'feature/BB-2' })?.source, 'linked');
    assert.deepEqual(chooseIssue({ branch: 'feature/BB-2', requests: ['CC-3'] }), {
      ref: { tracker: 'linear', key: 'BB-2' },
      source: 'branch',
    });
    assert.equal(
      formatIssue(
        chooseIssue({ branch: 'main', requests: ['do CC-3', 'now DD-4'], fromText: true })!.ref,
      ),
      'DD-4',
    );
    assert.equal(
      chooseIssue({ inherited: { tracker: 'github', key: '5' }, goal: 'EE-5', fromText: true })
        ?.source,
      'inherited',
    );
    assert.equal(chooseIssue({ goal: 'finish EE-5', fromText: true })?.source, 'goal');
    assert.equal(chooseIssue({ branch: 'main', requests: ['hello'] }), null);
  });
});
