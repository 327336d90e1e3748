import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'smol-toml';
import { geminiCommandsCheck } from './doctor-commands.ts';
import { installGemini, uninstallGemini } from './install.ts';

const NAMES = ['checkpoint.toml', 'defer.toml', 'handoff.toml', 'loop.toml', 'shard.toml'];

function setup(scope: 'user' | 'project' = 'user') {
  const root = mkdtempSync(join(tmpdir(), 'shim-gemini-commands-'));
  const home = join(root, 'shim');
  const project = join(root, 'project');
  mkdirSync(join(project, '.git'), { recursive: true });
  const env = { HOME: join(root, 'home') };
  const invocation = { node: '/usr/bin/node', bin: join(root, 'pkg', 'bin', 'shim.cjs') };
  const request = { scope, home, env, cwd: project };
  const gemini = scope === 'user' ? join(env.HOME, '.gemini') : join(project, '.gemini');
  return {
    root,
    home,
    invocation,
    gemini,
    commands: join(gemini, 'commands'),
    install: (dryRun = false) => installGemini({ ...request, dryRun, invocation }),
    uninstall: () => uninstallGemini(request),
  };
}

describe('Gemini CLI custom commands: install and uninstall', () => {
  test("install writes one .toml per command that runs this shim's `slash`; uninstall takes every byte back", () => {
    const w = setup();
    const report = w.install();
    assert.equal(report.changed, true);
    assert.deepEqual(readdirSync(w.commands).sort(), NAMES);
    assert.deepEqual(report.files[1], {
      path: w.commands,
      changes: NAMES.map((n) => `+ command /${n.replace('.toml', '')}`),
    });
    // What Gemini's loader reads: a prompt whose !{…} runs shim with the arguments, a description.
    const handoff = parse(readFileSync(join(w.commands, 'handoff.toml'), 'utf8')) as {
      prompt: string;
      description: string;
    };
    assert.match(
      handoff.prompt,
      /^!\{\/usr\/bin\/node \S+\/pkg\/bin\/shim\.cjs slash handoff --agent gemini \{\{args\}\}\}\n/,
    );
    assert.match(handoff.description, /handoff/);
    // Again: nothing to do.
    const again = w.install();
    assert.equal(again.changed, false);
    assert.deepEqual(again.notes, [
      `shim is already installed in ${join(w.gemini, 'settings.json')}`,
    ]);
    const out = w.uninstall();
    assert.equal(out.changed, true);
    assert.deepEqual(
      out.files.find((f) => f.path === w.commands)?.changes,
      NAMES.map((n) => `- command /${n.replace('.toml', '')}`),
    );
    // shim made ~/.gemini for settings.json and commands/ in it: both gone.
    assert.equal(existsSync(w.gemini), false);
  });

  test("a user's own command of the same name is never overwritten: said, skipped, left by uninstall", () => {
    const w = setup();
    mkdirSync(w.commands, { recursive: true });
    const mine = 'prompt = "my own handoff"\n';
    writeFileSync(join(w.commands, 'handoff.toml'), mine);
    writeFileSync(join(w.commands, 'review.toml'), 'prompt = "review"\n');
    const report = w.install();
    assert.equal(readFileSync(join(w.commands, 'handoff.toml'), 'utf8'), mine);
    assert.ok(
      report.notes.some((n) =>
        n.includes('handoff.toml is your own /handoff command: left as it is'),
      ),
      report.notes.join('\n'),
    );
    assert.ok(!report.files[1]!.changes.includes('+ command /handoff'));
    assert.equal(readdirSync(w.commands).length, 6);
    const doctor = geminiCommandsCheck(w.home, [join(w.gemini, 'settings.json')], w.invocation);
    assert.equal(doctor.status, 'warn');
    assert.match(doctor.detail, /^4 of 5 in .*; your own file kept: .*handoff\.toml$/);
    w.uninstall();
    assert.deepEqual(readdirSync(w.commands).sort(), ['handoff.toml', 'review.toml']);
    assert.equal(readFileSync(join(w.commands, 'handoff.toml'), 'utf8'), mine);
  });

  test('a command the user changed after install stays at uninstall (said); the others go', () => {
    const w = setup('project');
    w.install();
    assert.ok(existsSync(join(w.commands, 'loop.toml')), 'in the project with --project');
    const edited = `${readFileSync(join(w.commands, 'loop.toml'), 'utf8')}# mine now\n`;
    writeFileSync(join(w.commands, 'loop.toml'), edited);
    const out = w.uninstall();
    assert.deepEqual(readdirSync(w.commands), ['loop.toml']);
    assert.equal(readFileSync(join(w.commands, 'loop.toml'), 'utf8'), edited);
    assert.ok(
      out.notes.some((n) => /loop\.toml changed since shim wrote it: left as it is/.test(n)),
    );
  });

  test('--dry-run writes nothing and says the commands it would add', () => {
    const w = setup();
    const report = w.install(true);
    assert.equal(report.changed, true);
    assert.equal(report.files[1]!.changes.length, NAMES.length);
    assert.equal(existsSync(w.gemini), false);
  });

  test('doctor: all of them for this shim; another shim; one removed', () => {
    const w = setup();
    w.install();
    const settings = [join(w.gemini, 'settings.json')];
    const ok = geminiCommandsCheck(w.home, settings, w.invocation);
    assert.equal(ok.status, 'ok');
    assert.match(
      ok.detail,
      /^5 of 5 in .*commands \(\/checkpoint, \/defer, \/handoff, \/loop, \/shard\)$/,
    );
    const other = geminiCommandsCheck(w.home, settings, {
      ...w.invocation,
      bin: '/elsewhere/shim.cjs',
    });
    assert.equal(other.status, 'warn');
    assert.match(other.detail, /^0 of 5 .*; 5 run another shim than this one$/);
    writeFileSync(join(w.commands, 'defer.toml'), 'prompt = "x"\n');
    const changed = geminiCommandsCheck(w.home, settings, w.invocation);
    assert.match(changed.detail, /^4 of 5 .*; the others were removed$/);
    const none = geminiCommandsCheck(join(w.root, 'other-home'), settings, w.invocation);
    assert.equal(none.status, 'warn');
    assert.equal(none.fix, 'shim install --agent gemini');
  });

  test('a shim path with a brace cannot go into !{…}: no command is written, and it says why', () => {
    const w = setup();
    const report = installGemini({
      scope: 'user',
      home: w.home,
      env: { HOME: join(w.root, 'home') },
      cwd: join(w.root, 'project'),
      dryRun: false,
      invocation: { node: '/usr/bin/node', bin: '/opt/sh{im}/shim.cjs' },
    });
    assert.equal(existsSync(w.commands), false);
    assert.ok(report.notes.some((n) => /has a brace.*not installed/.test(n)));
  });
});
