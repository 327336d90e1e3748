/**
 * A tool call that shows a secret file (redact/secret-files.ts): its result is kept as a
 * stand-in with the file's name and line count, whatever is in it. Agent-neutral: it reads the
 * call's input as the session keeps it (tool-input-summary.ts), where every agent's tools name a
 * file in a path field (`file_path`, `path`, `absolute_path`, …) or run a command that reads one
 * (`cat`, `type`, `less`, `head`, `tail`, an editor, `grep`, `diff`, `git diff`/`show`, …).
 * @module
 */
import type { SessionState } from '../core/session.ts';
import { clip } from '../core/truncate.ts';
import { redactTextSync } from '../redact/redact.ts';
import { secretFileName, secretFileStandIn } from '../redact/secret-files.ts';
import { keepMemory, memoryOf } from './session-memory.ts';

/** Input fields that name the file a tool works on. */
const PATH_FIELD =
  /"(?:file_path|filePath|path|absolute_path|absolutePath|notebook_path|filename|file|target_file|source)"\s*:\s*"((?:[^"\\]|\\.){1,1000})"/g;
const PATHS_FIELD = /"(?:paths|file_paths|files)"\s*:\s*\[((?:\s*"(?:[^"\\]|\\.)*"\s*,?)*)/g;
const COMMAND_FIELD =
  /"(?:command|cmd)"\s*:\s*("(?:[^"\\]|\\.)*"|\[(?:\s*"(?:[^"\\]|\\.)*"\s*,?)*\])/g;

/** Commands that print a file they are given (or a diff of it). */
const READERS = new Set([
  'cat',
  'tac',
  'less',
  'more',
  'most',
  'head',
  'tail',
  'bat',
  'batcat',
  'nl',
  'view',
  'vi',
  'vim',
  'nvim',
  'nano',
  'emacs',
  'ed',
  'type',
  'get-content',
  'gc',
  'sed',
  'awk',
  'gawk',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ag',
  'ack',
  'cut',
  'sort',
  'uniq',
  'strings',
  'xxd',
  'od',
  'hexdump',
  'base64',
  'jq',
  'yq',
  'diff',
  'colordiff',
  'cmp',
  'openssl',
  'dotenv',
]);
/** git's subcommands that print a file's content or changes. */
const GIT_READERS = new Set(['diff', 'show', 'log', 'blame', 'cat-file', 'grep', 'stash']);

function unquote(json: string): string {
  try {
    return JSON.parse(json) as string;
  } catch {
    return json.slice(1, -1);
  }
}

/** A command's words, quotes removed, redirections' targets left out. */
function words(segment: string): string[] {
  const out: string[] = [];
  let redirected = false;
  for (const m of segment.matchAll(
    /(?:[0-9]?>>?|<<?-?|&>)|"((?:[^"\\]|\\.)*)"|'([^']*)'|([^\s"'<>]+)/g,
  )) {
    if (m[1] === undefined && m[2] === undefined && m[3] === undefined) {
      // `>`/`>>` writes what follows; `<` reads it (kept).
      redirected = m[0].includes('>');
      continue;
    }
    const word = m[1] ?? m[2] ?? m[3] ?? '';
    if (redirected) {
      redirected = false;
      continue;
    }
    out.push(word);
  }
  return out;
}

/** The secret file a shell command prints, if any. */
export function secretFileInCommand(command: string): string | null {
  for (const segment of command.split(/\|\||&&|[|;&\n]|\$\(|`/)) {
    const w = words(segment);
    let i = 0;
    // `sudo`, `env X=1`, `command`, `time`: the reader comes after.
    while (
      i < w.length &&
      (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w[i]!) ||
        /^(?:sudo|env|command|time|nice|xargs|exec)$/.test(w[i]!))
    )
      i++;
    const program = (w[i] ?? '').replace(/^.*\//, '').toLowerCase();
    const reads =
      READERS.has(program) || (program === 'git' && w.slice(i + 1).some((a) => GIT_READERS.has(a)));
    if (!reads) continue;
    for (const arg of w.slice(i + 1)) {
      // `--file=.env`, `-f.env`
      const path = arg.replace(/^-[^=]*=/, '');
      const name = secretFileName(path);
      if (name !== null) return name;
    }
  }
  return null;
}

/** The secret file a tool call shows, judged from its input as kept (`args`), or null. */
export function secretFileShown(args: string): string | null {
  for (const m of args.matchAll(PATH_FIELD)) {
    const name = secretFileName(unquote(`"${m[1]}"`));
    if (name !== null) return name;
  }
  for (const m of args.matchAll(PATHS_FIELD)) {
    for (const p of (m[1] ?? '').matchAll(/"((?:[^"\\]|\\.)*)"/g)) {
      const name = secretFileName(unquote(`"${p[1]}"`));
      if (name !== null) return name;
    }
  }
  for (const m of args.matchAll(COMMAND_FIELD)) {
    const raw = m[1] ?? '';
    let command: string;
    if (raw.startsWith('[')) {
      try {
        const argv = (JSON.parse(raw) as unknown[]).map(String);
        // `["bash", "-lc", "<script>"]`: the script is the command.
        const script = argv.findIndex((a) => /^-[a-z]*c$/.test(a));
        command = script >= 0 && script + 1 < argv.length ? argv[script + 1]! : argv.join(' ');
      } catch {
        command = raw;
      }
    } else command = unquote(raw);
    const name = secretFileInCommand(command);
    if (name !== null) return name;
  }
  return null;
}

/** At most this many values are learned from one secret file (a key file's base64 lines). */
const MAX_LEARNED = 200;

/**
 * What a secret file holds is secret wherever else it stands: its values (what the rules find,
 * and every other distinctive run between `=`, `:`, quotes and spaces) join the session's memory.
 */
function learnSecretFile(state: SessionState, content: string): void {
  const memory = memoryOf(state);
  redactTextSync(content, memory);
  let learned = 0;
  for (const token of content.split(/[\s'"`=:,;→|]+/)) {
    if (learned >= MAX_LEARNED) break;
    if (memory.learn(token, 'secret-file')) learned++;
  }
  keepMemory(state, memory);
}

/**
 * A tool's result as the session keeps it: a stand-in when the call showed a secret file (whose
 * values the session's memory learns, with `state`), else the result cut to `max` characters.
 */
export function keptToolResult(
  args: string,
  result: string,
  max: number,
  state?: SessionState,
): string {
  const name = secretFileShown(args);
  if (name === null) return clip(result, max);
  if (state) learnSecretFile(state, result);
  return secretFileStandIn(name, result);
}
