/**
 * `shim doctor` for Codex CLI (docs/agents.md, "Codex CLI"): shim's hooks in hooks.json, whether
 * Codex will run them — it skips a hook without a matching trust entry without a word, so an
 * installed-but-untrusted hook is the failure this must tell apart — and the MCP server in
 * config.toml. Nothing when shim was never installed into Codex.
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentCheck, DoctorRequest } from '../../agent.ts';
import { getCodexConfigPath } from '../config.ts';
import { getCodexHome } from '../sessions.ts';
import {
  checkCodexTrust,
  CODEX_HOOKS,
  codexHookCommand,
  isCodexInstallRecorded,
} from './install.ts';

const FIX = 'shim install --agent codex';

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function line(
  id: string,
  title: string,
  status: AgentCheck['status'],
  detail: string,
  fix: string | null = null,
): AgentCheck {
  return { id, title, status, essential: true, detail, fix };
}

export function codexDoctorChecks(request: DoctorRequest): AgentCheck[] {
  const hooksPath = join(getCodexHome(request.env), 'hooks.json');
  const configPath = getCodexConfigPath(request.env);
  const trust = checkCodexTrust(request.env);
  if (trust.length === 0 && !isCodexInstallRecorded(request.home)) return [];

  const hooksText = read(hooksPath) ?? '';
  const present = new Set(trust.map((t) => t.hook));
  const missing = CODEX_HOOKS.map((h) => h.event).filter((e) => !present.has(e));
  // Written for another shim (moved, reinstalled elsewhere): they would run that one.
  const elsewhere = CODEX_HOOKS.filter(
    (h) =>
      present.has(h.event) &&
      !hooksText.includes(JSON.stringify(codexHookCommand(request.shim, h.event)).slice(1, -1)),
  ).map((h) => h.event);
  const hooks =
    missing.length > 0
      ? line(
          'codex-hooks',
          'Codex hooks',
          'fail',
          `${hooksPath} lacks shim's ${missing.join(', ')} hook${missing.length === 1 ? '' : 's'}`,
          FIX,
        )
      : elsewhere.length > 0
        ? line(
            'codex-hooks',
            'Codex hooks',
            'warn',
            `${hooksPath} runs another shim than this one (${request.shim.bin}) for ${elsewhere.join(', ')}`,
            FIX,
          )
        : line(
            'codex-hooks',
            'Codex hooks',
            'ok',
            `all ${CODEX_HOOKS.length} events in ${hooksPath}`,
          );

  const untrusted = trust.filter((t) => t.state !== 'trusted');
  const trusted =
    trust.length === 0
      ? line('codex-trust', 'Codex hook trust', 'fail', 'no shim hook to trust', FIX)
      : untrusted.length === 0
        ? line(
            'codex-trust',
            'Codex hook trust',
            'ok',
            `Codex runs all ${trust.length} of shim's hooks (their trust entries in ${configPath} match)`,
          )
        : line(
            'codex-trust',
            'Codex hook trust',
            'fail',
            `Codex skips ${untrusted.length} of shim's ${trust.length} hooks without a word: ${untrusted
              .map(
                (t) =>
                  `${t.hook} (${t.state === 'modified' ? 'changed since it was trusted' : 'never trusted'})`,
              )
              .join(', ')}`,
            `run \`${FIX}\` again (it writes the trust entries), or approve them in Codex with /hooks: ${untrusted
              .map((t) => `[hooks.state."${t.key}"]`)
              .join(', ')}`,
          );

  const config = read(configPath) ?? '';
  const mcp = /^\[mcp_servers\.shim\]/m.test(config)
    ? line('codex-mcp', 'Codex MCP server', 'ok', `registered in ${configPath}`)
    : line('codex-mcp', 'Codex MCP server', 'fail', `no [mcp_servers.shim] in ${configPath}`, FIX);
  return [hooks, trusted, mcp];
}
