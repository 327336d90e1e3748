/**
 * What a `shim` command costs to start, as a user (and every integration test) pays it: `shim
 * --version`, `shim list --all` and `shim show <id>` on a home holding two checkpoints of the
 * transcript, beside `node -e ''` in the same run (interleaved), the code cache warm as for
 * anyone who ran a command before. These run from dist/commands.cjs (src/entries/commands.ts).
 *
 *   node --import tsx bench/commands.ts <transcript.jsonl>      (npm run bench runs it too)
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { cpuNode, median, timeNode } from './child-time.ts';
import { makeTempDir } from '../test/helpers/fixtures.ts';

type Report = (name: string, value: string, note?: string) => void;

const BIN = join(import.meta.dirname, '..', 'bin', 'shim.cjs');
const RUNS = 11;

export type CommandFigures = Record<string, { ms: number; ratio: number; cpuMs: number | null }>;

export function runCommandsBench(
  report: Report,
  results: Record<string, unknown>,
  transcript: string,
): CommandFigures {
  const root = makeTempDir('shim-bench-commands-');
  try {
    const home = join(root, 'home');
    mkdirSync(home);
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, NO_COLOR: '1' };
    for (const name of ['NODE_EXTRA_CA_CERTS', 'SHIM_HOME', 'CLAUDE_CONFIG_DIR']) delete env[name];
    const shim = (args: string[]) => {
      const r = spawnSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`shim ${args.join(' ')} failed: ${r.stderr}`);
      return r.stdout;
    };
    for (const reason of ['first', 'second'])
      shim(['checkpoint', '-t', transcript, '--no-snapshot', '-r', reason, '--agent', 'claude']);
    const id = /^([0-9a-f]{8}) /m.exec(shim(['list', '--all']))?.[1];
    if (!id) throw new Error('shim list --all showed no checkpoint');
    const commands: Array<[string, string[]]> = [
      ['shim --version', ['--version']],
      ['shim list --all (2 checkpoints)', ['list', '--all']],
      ['shim show <id> --all', ['show', id, '--all']],
    ];
    // Once each: the code cache is written.
    for (const [, args] of commands) shim(args);
    const node: number[] = [];
    const times = commands.map(() => [] as number[]);
    for (let i = 0; i < RUNS; i++) {
      node.push(timeNode(['-e', ''], '', env));
      commands.forEach(([, args], k) => times[k]!.push(timeNode([BIN, ...args], '', env)));
    }
    const cpuOf = (args: string[]) => {
      const samples: number[] = [];
      for (let i = 0; i < 5; i++) {
        const ms = cpuNode(args, '', env);
        if (ms === null) return null;
        samples.push(ms);
      }
      return median(samples);
    };
    const base = median(node);
    const cpuBase = cpuOf(['-e', '']);
    const figures: CommandFigures = {};
    for (const [k, [name, args]] of commands.entries()) {
      const ms = median(times[k]!);
      const cpuMs = cpuBase === null ? null : cpuOf([BIN, ...args]);
      figures[name] = { ms, ratio: ms / base, cpuMs };
      const cpu =
        cpuMs !== null && cpuBase !== null
          ? `; CPU ${cpuMs.toFixed(1)} ms, ${(cpuMs / cpuBase).toFixed(2)}× (node ${cpuBase.toFixed(1)} ms)`
          : '';
      report(name, `${ms.toFixed(2)} ms`, `${(ms / base).toFixed(2)}× node -e ''${cpu}`);
    }
    results.commands = { nodeMs: base, cpuNodeMs: cpuBase, ...figures };
    return figures;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const transcript = process.argv[2];
  if (!transcript) {
    process.stderr.write('usage: node --import tsx bench/commands.ts <transcript.jsonl>\n');
    process.exit(2);
  }
  const report: Report = (name, value, note = '') =>
    process.stdout.write(`  ${name.padEnd(46)} ${value.padStart(14)}  ${note}\n`);
  runCommandsBench(report, {}, transcript);
}
