/**
 * A realistic user settings file for tests: permissions, env, other tools' hooks in several
 * events, a statusline command of the user's own, three-space indentation with some one-line
 * arrays, and no final newline — everything a careless rewrite would change.
 */
export const REALISTIC_SETTINGS = `{
   "$schema": "https://json.schemastore.org/claude-code-settings.json",
   "model": "opus",
   "permissions": {
      "allow": ["Bash(npm run test:*)", "Read(~/.zshrc)"],
      "deny": ["Read(./.env)", "Read(./secrets/**)"],
      "defaultMode": "acceptEdits"
   },
   "env": {
      "CLAUDE_CODE_ENABLE_TELEMETRY": "0",
      "BASH_DEFAULT_TIMEOUT_MS": "120000"
   },
   "hooks": {
      "PreToolUse": [
         {
            "matcher": "Bash",
            "hooks": [ { "type": "command", "command": "~/.claude/hooks/guard-rm.sh" } ]
         }
      ],
      "PostToolUse": [
         {
            "matcher": "Edit|Write",
            "hooks": [ { "type": "command", "command": "npx prettier --write \\"$CLAUDE_FILE_PATHS\\"", "timeout": 30 } ]
         }
      ],
      "Stop": [
         { "hooks": [ { "type": "command", "command": "afplay /System/Library/Sounds/Glass.aiff", "async": true } ] }
      ],
      "Notification": [
         { "matcher": "idle_prompt", "hooks": [ { "type": "command", "command": "notify-send 'Claude' 'waiting'" } ] }
      ]
   },
   "statusLine": {
      "type": "command",
      "command": "bash ~/.claude/statusline.sh --compact",
      "padding": 1
   },
   "includeCoAuthoredBy": false,
   "cleanupPeriodDays": 99
}`;

export const USER_STATUSLINE = 'bash ~/.claude/statusline.sh --compact';

/** The foreign hook commands in REALISTIC_SETTINGS, by event, in order. */
export const FOREIGN_HOOKS: Record<string, string[]> = {
  PreToolUse: ['~/.claude/hooks/guard-rm.sh'],
  PostToolUse: ['npx prettier --write "$CLAUDE_FILE_PATHS"'],
  Stop: ['afplay /System/Library/Sounds/Glass.aiff'],
  Notification: ["notify-send 'Claude' 'waiting'"],
};
