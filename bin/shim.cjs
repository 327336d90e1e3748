#!/usr/bin/env node
// The `shim` launcher. Hooks and the statusline run as fresh processes on every tool call and
// every render: they load one CommonJS bundle each, with no ES-module loader and no CLI parser.
'use strict';
const [command, ...rest] = process.argv.slice(2);
const HELP = {
  hook: `Usage: shim hook <Event>

Runs one Claude Code hook event; the payload comes on stdin as JSON. Claude Code runs this
itself once \`shim install\` has wired it (SessionStart, UserPromptSubmit, PreToolUse,
PostToolUse, PostToolUseFailure, PreCompact, PostCompact, Stop, SessionEnd, PostModelSwitch). It never blocks
or breaks the agent: problems go to $SHIM_HOME/logs/shim.log and it exits 0.

Try it: echo '{"session_id":"x","transcript_path":"/path/to/session.jsonl"}' | shim hook PostToolUse
`,
  statusline: `Usage: shim statusline [--wrap-command '<your statusline command>']

Prints shim's statusline from Claude Code's statusline JSON on stdin:
  [CTX ████████░░ 82% L2] [risk: warning] [~6 turns to compact] [ckpt 3m ago]
With --wrap-command, your own statusline command runs too and shim's line follows it.
\`shim install\` sets this up in Claude Code's settings.
`,
};
if (
  (command === 'hook' || command === 'statusline') &&
  rest.some((a) => a === '--help' || a === '-h')
) {
  process.stdout.write(HELP[command]);
} else if (command === 'hook') {
  require('../dist/hook.cjs').main(rest[0]);
} else if (command === 'statusline') {
  require('../dist/statusline.cjs').main(rest);
} else {
  import('../dist/cli.js');
}
