/**
 * `shim doctor` for Gemini CLI (docs/agents.md, "Gemini CLI"): shim's hooks for every event it
 * registers and its MCP server, in the user's or the project's settings.json (the CLI reads both),
 * pointing at this shim; its custom commands beside them (doctor-commands.ts). Gemini runs hooks without a trust step, so present means active. Nothing
 * when shim was never installed into Gemini CLI.
 * @module
 */
import { readFileSync } from 'node:fs';
import { findProjectRoot } from '../../../capture/project.ts';
import type { AgentCheck, DoctorRequest } from '../../agent.ts';
import { isObj } from '../chat-record.ts';
import { GEMINI_SETTINGS_EVENTS } from '../hook-payload.ts';
import { parseSettingsText, projectSettingsPath, userSettingsPath } from '../sessions.ts';
import { inspectShim } from './gemini-entries.ts';
import { isGeminiInstallRecorded } from './install.ts';
import { geminiCommandsCheck } from './doctor-commands.ts';

const FIX = 'shim install --agent gemini';

type Source = { path: string; shim: ReturnType<typeof inspectShim> | null; problem: string | null };

function readSource(path: string): Source {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { path, shim: null, problem: null };
  }
  try {
    const value = parseSettingsText(text);
    if (!isObj(value)) return { path, shim: null, problem: 'it does not hold a JSON object' };
    return { path, shim: inspectShim(value), problem: null };
  } catch (error) {
    return { path, shim: null, problem: `it is not valid JSON (${(error as Error).message})` };
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

export function geminiDoctorChecks(request: DoctorRequest): AgentCheck[] {
  const paths = [
    ...new Set([userSettingsPath(request.env), projectSettingsPath(findProjectRoot(request.cwd))]),
  ];
  const sources = paths.map(readSource);
  const installed =
    sources.some((s) => (s.shim?.events.length ?? 0) > 0 || s.shim?.mcp) ||
    paths.some((p) => isGeminiInstallRecorded(request.home, p));
  if (!installed) return [];

  const checks: AgentCheck[] = [];
  for (const s of sources.filter((s) => s.problem !== null))
    checks.push(
      line(
        'gemini-settings',
        'Gemini settings',
        'fail',
        `${s.path} cannot be read: ${s.problem}; Gemini CLI cannot read it either`,
        'fix the file, then run `shim install --agent gemini` again',
      ),
    );
  const hooked = sources.filter((s) => (s.shim?.events.length ?? 0) > 0);
  const events = new Set(hooked.flatMap((s) => s.shim!.events));
  const missing = GEMINI_SETTINGS_EVENTS.filter((e) => !events.has(e));
  const bins = [...new Set(hooked.flatMap((s) => s.shim!.bins))];
  const where = hooked.map((s) => s.path).join(' and ') || paths.join(' or ');
  checks.push(
    missing.length === 1 && missing[0] === 'BeforeModel'
      ? // Installed by a shim from before it (issue 39): the work is kept, a restore's < and > are not.
        line(
          'gemini-hooks',
          'Gemini hooks',
          'warn',
          `${where} lacks shim's BeforeModel hook: restores reach the model with < and > escaped (&lt; &gt;)`,
          FIX,
        )
      : missing.length > 0
        ? line(
            'gemini-hooks',
            'Gemini hooks',
            'fail',
            `${where} lacks shim's ${missing.join(', ')} hook${missing.length === 1 ? '' : 's'}`,
            FIX,
          )
        : bins.some((b) => b !== request.shim.bin)
          ? line(
              'gemini-hooks',
              'Gemini hooks',
              'warn',
              `${where} runs another shim than this one (${request.shim.bin}): ${bins.join(', ')}`,
              FIX,
            )
          : line(
              'gemini-hooks',
              'Gemini hooks',
              'ok',
              `all ${GEMINI_SETTINGS_EVENTS.length} events in ${where} (Gemini runs hooks without a trust step)`,
            ),
  );
  const mcp = sources.find((s) => s.shim?.mcp);
  checks.push(
    mcp
      ? line('gemini-mcp', 'Gemini MCP server', 'ok', `registered in ${mcp.path}`)
      : line(
          'gemini-mcp',
          'Gemini MCP server',
          'fail',
          `no mcpServers.shim in ${paths.join(' or ')}`,
          FIX,
        ),
  );
  const installedInto = sources
    .filter(
      (s) =>
        (s.shim?.events.length ?? 0) > 0 ||
        s.shim?.mcp ||
        isGeminiInstallRecorded(request.home, s.path),
    )
    .map((s) => s.path);
  checks.push(geminiCommandsCheck(request.home, installedInto, request.shim));
  return checks;
}
