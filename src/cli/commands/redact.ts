import { createReadStream, readFileSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { AppError } from '../../core/errors.ts';
import {
  redactTextSync,
  redactValueSync,
  SecretMemory,
  type Finding,
} from '../../redact/redact.ts';
import { secretFileName, secretFileStandIn } from '../../redact/secret-files.ts';

type RedactOptions = { jsonl?: boolean; each?: boolean; contents?: boolean; summary?: boolean };

const STDIN = '-';

function where(file: string): string {
  return file === STDIN ? 'standard input' : resolve(file);
}

/** Counts by kind, for --summary. */
class Tally {
  readonly #kinds = new Map<string, number>();
  add(findings: readonly Finding[] | number, rule = 'secret'): void {
    if (typeof findings === 'number') {
      if (findings > 0) this.#kinds.set(rule, (this.#kinds.get(rule) ?? 0) + findings);
      return;
    }
    for (const f of findings) this.#kinds.set(f.rule, (this.#kinds.get(f.rule) ?? 0) + 1);
  }
  toString(): string {
    const total = [...this.#kinds.values()].reduce((a, b) => a + b, 0);
    if (total === 0) return 'shim redact: no secret found';
    const kinds = [...this.#kinds].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`);
    return `shim redact: ${total} replaced (${kinds.join(', ')})`;
  }
}

function readWhole(file: string): string {
  try {
    if (file !== STDIN && statSync(file).isDirectory())
      throw new AppError(
        'USAGE',
        `${where(file)} is a directory`,
        'give a file, or - for standard input',
      );
    return readFileSync(file === STDIN ? 0 : resolve(file), 'utf8');
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(
      'USAGE',
      `cannot read ${where(file)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      file === STDIN ? 'pipe the text in, or give a file' : 'check the path',
    );
  }
}

/** One JSON value per line in, the same redacted per line out; a blank line stays blank. */
async function redactLines(file: string, options: RedactOptions, tally: Tally): Promise<void> {
  const input = file === STDIN ? process.stdin : createReadStream(resolve(file));
  input.on('error', () => {}); // reported by the loop below
  const memory = new SecretMemory();
  let n = 0;
  try {
    for await (const line of createInterface({ input, crlfDelay: Infinity })) {
      n++;
      if (line.trim() === '') {
        process.stdout.write('\n');
        continue;
      }
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new AppError(
          'USAGE',
          `line ${n} of ${where(file)} is not JSON: ${line.slice(0, 60)}${line.length > 60 ? '…' : ''}`,
          'with --jsonl every line is one JSON value, a string like "export TOKEN=…" (a blank line is kept)',
        );
      }
      const { value: out, findings } = redactValueSync(value, options.each ? undefined : memory);
      tally.add(findings);
      if (!process.stdout.write(`${JSON.stringify(out)}\n`))
        await new Promise((done) => process.stdout.once('drain', done));
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(
      'USAGE',
      `cannot read ${where(file)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      'check the path',
    );
  }
}

export async function runRedact(file: string | undefined, options: RedactOptions): Promise<void> {
  const source = file ?? STDIN;
  if (source === STDIN && process.stdin.isTTY)
    throw new AppError(
      'USAGE',
      'nothing to redact: standard input is a terminal',
      'give a file (shim redact build.log) or pipe the text in (… | shim redact)',
    );
  if (options.each && !options.jsonl)
    throw new AppError('USAGE', '--each goes with --jsonl', 'add --jsonl, or leave --each out');
  const tally = new Tally();
  if (options.jsonl) await redactLines(source, options, tally);
  else {
    const text = readWhole(source);
    const secretFile =
      source === STDIN || options.contents
        ? null
        : secretFileName(basename(source) === source ? source : resolve(source));
    if (secretFile !== null) {
      process.stdout.write(`${secretFileStandIn(secretFile, text)}\n`);
      tally.add(1, 'secret-file');
      process.stderr.write(
        `shim redact: ${secretFile} is a secret file: shim keeps only its name and line count (--contents shows its text with each secret replaced)\n`,
      );
    } else {
      const { text: out, findings } = redactTextSync(text);
      tally.add(findings);
      process.stdout.write(out);
    }
  }
  if (options.summary) process.stderr.write(`${tally.toString()}\n`);
}
