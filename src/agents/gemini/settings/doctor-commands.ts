/**
 * `shim doctor` for shim's Gemini CLI custom commands (install-commands.ts): how many of them are
 * in the commands directory beside each settings.json shim was installed into, as this shim
 * writes them; which a file of the user's own keeps out; which another shim wrote. Information
 * (not essential): the hooks keep the work without them.
 * @module
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentCheck } from '../../agent.ts';
import { IN_SESSION_COMMANDS } from '../../../core/in-session-commands.ts';
import { geminiCommandFiles } from './gemini-commands.ts';
import type { ShimInvocation } from './gemini-entries.ts';
import { commandsDirOf, readCommandsRecord } from './install-commands.ts';

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function check(status: AgentCheck['status'], detail: string, fix: string | null): AgentCheck {
  return { id: 'gemini-commands', title: 'Gemini commands', status, essential: false, detail, fix };
}

/** One line for the commands beside `settingsPaths` (those shim was installed into). */
export function geminiCommandsCheck(
  home: string,
  settingsPaths: string[],
  invocation: ShimInvocation,
): AgentCheck {
  const all = IN_SESSION_COMMANDS.length;
  const wanted = geminiCommandFiles(invocation);
  const fix = 'shim install --agent gemini';
  const found = settingsPaths
    .map((p) => readCommandsRecord(home, commandsDirOf(p)))
    .filter((r) => r !== null);
  if (found.length === 0)
    return check(
      'warn',
      `none of shim's ${all} commands (/handoff, /defer, /loop …) in ${settingsPaths.map(commandsDirOf).join(' or ')}`,
      fix,
    );
  const current = new Set<string>();
  const stale = new Set<string>();
  const yours: string[] = [];
  for (const record of found) {
    for (const file of wanted) {
      const text = readText(join(record.dir, file.name));
      if (text === file.text) current.add(file.name);
      else if (text !== null && record.files[file.name] === sha256(text)) stale.add(file.name);
    }
    yours.push(...record.skipped.map((name) => join(record.dir, name)));
  }
  const names = [...current].map((n) => `/${n.replace(/\.toml$/, '')}`).join(', ');
  const where = found.map((r) => r.dir).join(' and ');
  const count = `${current.size} of ${all} in ${where}${names ? ` (${names})` : ''}`;
  if (stale.size > 0)
    return check('warn', `${count}; ${stale.size} run another shim than this one`, fix);
  if (yours.length > 0)
    return check(
      'warn',
      `${count}; your own file${yours.length === 1 ? '' : 's'} kept: ${yours.join(', ')}`,
      null,
    );
  if (current.size < all) return check('warn', `${count}; the others were removed`, fix);
  return check('ok', count, null);
}
