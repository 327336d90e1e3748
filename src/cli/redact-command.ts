/**
 * `shim redact`: any text as shim would keep it, every secret replaced — to check a log before
 * sharing it, or to score the redactor from a script (`--jsonl`).
 * @module
 */
import type { Command } from '@commander-js/extra-typings';

export function defineRedactCommand(program: Command): void {
  program
    .command('redact')
    .description(
      'print a file (or standard input) with every secret replaced, exactly as shim would keep it',
    )
    .argument('[file]', 'the text to redact, or - for standard input (the default)')
    .option(
      '--jsonl',
      'one JSON value per line in (a string, or any JSON), the same redacted per line out, in order',
    )
    .option(
      '--each',
      'redact each --jsonl line on its own (by default the lines are one session: a value found in one is replaced in all)',
    )
    .option(
      '--contents',
      "a secret file's text with each secret replaced, rather than the stand-in shim keeps of it",
    )
    .option('--summary', 'say on standard error how many secrets were replaced, by kind')
    .addHelpText(
      'after',
      `
  Every secret becomes [REDACTED:<kind>]: provider tokens (ghp_…, sk-…, AKIA…), private keys,
  passwords in URLs and on command lines, and any generated-looking value where a credential
  stands — assigned to, declared as, keyed by or introduced by a name like key, token, secret,
  password, pass, auth, credential or api, in .env, JSON, YAML, TOML, code, XML, .netrc,
  .pgpass, password hashes, or prose ("your API key is …"). The text is one session: a value
  found once is replaced wherever else it stands, as shim does across a session's prompts,
  tool calls, summary and checkpoints. Placeholders (<your-key>, xxx, \${VAR}, process.env.X),
  paths, versions and words are left alone. A secret file (.env, .netrc, id_rsa, *.pem,
  ~/.aws/credentials, …) is kept as a stand-in with its name and line count, as shim keeps
  what a tool showed of one; --contents shows its text, each secret replaced.
  docs/secret-formats.md lists what is recognised and why.

  Examples:
    shim redact ~/.claude/projects/-src-app/4f8c1176.jsonl > shareable.jsonl
    pbpaste | shim redact                        check what you are about to paste
    shim redact --summary build.log > /dev/null  how many secrets a log holds
    printf '%s\\n' '"export TOKEN=abc123def456ghi789jkl"' | shim redact --jsonl
                                                 → "export TOKEN=[REDACTED:secret-assignment]"`,
    )
    .action(async (file, options) =>
      (await import('./commands/redact.ts')).runRedact(file, options),
    );
}
