/** One line of plain text per settings change, for the install/uninstall output. Pure. */
import { NOT_SHIM_MOD } from './hook-spec.ts';
import type { SettingsChange } from './install.ts';

const EVENT_WIDTH = 20;

function pad(text: string): string {
  return text.padEnd(EVENT_WIDTH);
}

export function describeChange(change: SettingsChange): string {
  switch (change.kind) {
    case 'hook-added':
    case 'hook-replaced': {
      const matcher =
        change.matcher === undefined
          ? ''
          : change.matcher === NOT_SHIM_MOD
            ? "[every tool but shim's mod reports] "
            : `[${change.matcher}] `;
      const how =
        change.kind === 'hook-replaced' ? `, replacing ${change.previous.join(', ')}` : '';
      return `${change.kind === 'hook-added' ? '+' : '~'} ${pad(change.event)}${matcher}timeout ${change.timeout} s${how}`;
    }
    case 'hook-removed':
      return `- ${pad(change.event)}${change.commands.join(', ')}`;
    case 'statusline-added':
      return `+ ${pad('statusLine')}shim's context line`;
    case 'statusline-wrapped':
      return `+ ${pad('statusLine')}shim's context line, shown with yours: ${change.original}`;
    case 'statusline-replaced':
      return `~ ${pad('statusLine')}${change.command}, replacing ${change.previous}`;
    case 'statusline-restored':
      return `- ${pad('statusLine')}yours is back: ${change.command}`;
    case 'statusline-removed':
      return `- ${pad('statusLine')}shim's removed`;
    case 'mcp-added':
      return `+ ${pad('MCP server')}"${change.name}" (${change.command}) in ${change.path}`;
    case 'mcp-replaced':
      return `~ ${pad('MCP server')}"${change.name}" (${change.command}) in ${change.path}, replacing ${change.previous}`;
    case 'mcp-removed':
      return `- ${pad('MCP server')}"${change.name}" from ${change.path}`;
    case 'mod-added':
      return `+ ${pad('mod')}shim's mod (Claude Code 2.1.287+: each response's usage, live)`;
    case 'mod-removed':
      return `- ${pad('mod')}shim's mod`;
    default:
      return change satisfies never;
  }
}
