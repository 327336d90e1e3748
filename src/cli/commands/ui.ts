/**
 * `shim ui`: serve the dashboard until interrupted, or write one export file.
 * @module
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Agents } from '../../agents/agent.ts';
import { newestSession } from '../../app/session/session-log.ts';
import { AppError } from '../../core/errors.ts';
import { loadConfig } from '../../store/config/config.ts';
import { getShimHome } from '../../store/home/home.ts';
import { renderExport } from '../../ui/export.ts';
import { startDashboard } from '../../ui/serve.ts';

type UiOptions = {
  port: number;
  open?: boolean;
  export?: string;
  session?: string;
  loop?: string;
  force?: boolean;
  json?: boolean;
  team?: boolean;
};

function openInBrowser(url: string): void {
  const command =
    process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(command, [url], { stdio: 'ignore', detached: true });
    child.on('error', () =>
      process.stderr.write(`could not start ${command}; open the link yourself\n`),
    );
    child.unref();
  } catch {
    process.stderr.write(`could not start ${command}; open the link yourself\n`);
  }
}

/** The newest session of this directory, of any agent: what `--export` means without --session. */
async function latestSessionId(agents: Agents): Promise<string> {
  const newest = await newestSession(process.cwd(), process.env, agents);
  if (!newest)
    throw new AppError(
      'SESSION_NOT_FOUND',
      `no session of any agent in ${process.cwd()}`,
      'pass --session <id> (`shim list` shows them), or run it in the project the session ran in',
    );
  return newest.file.sessionId;
}

async function runExport(agents: Agents, file: string, options: UiOptions): Promise<void> {
  const path = resolve(file);
  if (!path.endsWith('.html'))
    throw new AppError('USAGE', `${file} does not end in .html`, 'name the export file.html');
  if (existsSync(path) && !options.force)
    throw new AppError(
      'USAGE',
      `${file} exists`,
      'pass --force to replace it, or pick another name',
    );
  if (options.session && options.loop)
    throw new AppError('USAGE', '--session and --loop both given', 'export one of them');
  const target = options.loop
    ? { loop: options.loop }
    : { session: options.session ?? (await latestSessionId(agents)) };
  const exported = await renderExport({
    agents,
    home: getShimHome(),
    env: process.env,
    target,
    now: Date.now(),
  });
  // A missing folder is made, as `cp` users expect of an output path; a file in the way is named.
  const folder = dirname(path);
  try {
    mkdirSync(folder, { recursive: true });
  } catch (error) {
    throw new AppError(
      'USAGE',
      `cannot write ${file}: ${folder} cannot be created (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      'pick a folder you can write',
    );
  }
  if (!statSync(folder).isDirectory())
    throw new AppError(
      'USAGE',
      `cannot write ${file}: ${folder} is not a folder`,
      'pick another path',
    );
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, exported.html, { mode: 0o600 });
  renameSync(temp, path);
  const kb = Math.round(Buffer.byteLength(exported.html) / 1024);
  if (options.json)
    process.stdout.write(
      `${JSON.stringify({ file: path, bytes: Buffer.byteLength(exported.html), redactions: exported.redactions })}\n`,
    );
  else
    process.stdout.write(
      `wrote ${file} (${kb} KB, ${exported.title.replace(/^shim: /, '')}${exported.redactions ? `, ${exported.redactions} secrets redacted` : ''}): it opens from disk, offline\n`,
    );
}

export async function runUi(agents: Agents, options: UiOptions): Promise<void> {
  if (options.team && options.export)
    throw new AppError('USAGE', '--team and --export do not go together', 'export without --team');
  if (options.export) return runExport(agents, options.export, options);
  if (options.session || options.loop || options.force)
    throw new AppError(
      'USAGE',
      '--session, --loop and --force go with --export',
      'shim ui --export file.html --session <id>',
    );
  const home = getShimHome();
  // The team store's reads load pg only here, for this flag (the hooks never do).
  const team = options.team
    ? await (
        await import('../../app/team/team-dashboard.ts')
      ).openTeamDashboard({
        home,
        env: process.env,
        config: await loadConfig(home, { lenient: true }),
        cwd: process.cwd(),
      })
    : undefined;
  const dashboard = await startDashboard({
    agents,
    home,
    env: process.env,
    port: options.port,
    ...(team ? { team } : {}),
  }).catch(async (error: unknown) => {
    await team?.close();
    throw error;
  });
  if (options.json)
    process.stdout.write(`${JSON.stringify({ url: dashboard.url, port: dashboard.port })}\n`);
  else
    process.stdout.write(
      `shim ui: ${dashboard.url}\n(127.0.0.1 only; the link's token works until this stops — Ctrl-C)\n`,
    );
  if (options.open) openInBrowser(dashboard.url);
  await new Promise<void>((resolveStop) => {
    const stop = () => {
      void dashboard.close().then(resolveStop);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
