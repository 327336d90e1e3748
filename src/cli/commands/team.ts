/**
 * `shim team connect|disconnect|pull|status`, and the `--team` side of list, search and handoff.
 * @module
 */
import { openTeamRepository } from '../../app/team/open-team-store.ts';
import { listTeamSessions, searchTeam } from '../../app/team/team-reads.ts';
import { currentWriter } from '../../app/team/team-settings.ts';
import { checkTeamUrl } from '../../app/team/team-url.ts';
import { getTeamStatus } from '../../app/team/team-status.ts';
import { pullTeamHere } from '../../app/team/pull-for-project.ts';
import { syncTeam } from '../../app/team/team-sync.ts';
import { AppError } from '../../core/errors.ts';
import { startSyncWorker } from '../../app/sync/enqueue-sync.ts';
import { describeTeamTarget } from '../../store/postgres/team-errors.ts';
import { loadConfig, writeTeamSetting } from '../../store/config/config.ts';
import { openCommandStore } from '../../app/open-command-store.ts';
import { getShimHome } from '../../store/home/home.ts';
import { renderTable } from '../format/table.ts';
import { dim } from '../format/text.ts';
import { formatAge } from '../format/units.ts';
import { formatDuration } from '../../core/resume/resume.ts';

export async function runTeamConnect(url: string): Promise<void> {
  const home = getShimHome();
  checkTeamUrl(url, 'argument');
  const repository = await openTeamRepository({ url, migrate: true });
  let canWrite: boolean;
  try {
    canWrite = await repository.canWrite();
  } finally {
    await repository.close();
  }
  writeTeamSetting(home, 'url', url);
  const writer = currentWriter(process.env);
  process.stdout.write(
    `connected to the team store at ${describeTeamTarget(url)} as ${writer.osUser} on ${writer.machine}\n` +
      (canWrite
        ? dim(
            "this machine's sessions, checkpoints, handoffs and loop runs replicate from now on (shim team status)\n",
          )
        : `read-only: this role may read the team's rows but not write them; grant it shim_writer to share this machine's work (docs/team.md)\n`),
  );
  if (process.env.SHIM_TEAM_URL)
    process.stdout.write(dim('SHIM_TEAM_URL is set and wins over this setting while it is\n'));
  await startSyncWorker(process.cwd(), process.env, home);
}

export async function runTeamDisconnect(): Promise<void> {
  const home = getShimHome();
  writeTeamSetting(home, 'url', null);
  process.stdout.write(
    'disconnected: nothing more is sent to the team store or restored from it (rows already sent stay there)\n',
  );
  if (process.env.SHIM_TEAM_URL)
    process.stdout.write('SHIM_TEAM_URL is still set in this environment: unset it too\n');
}

export async function runTeamStatus(options: { json?: boolean }): Promise<void> {
  const home = getShimHome();
  const config = await loadConfig(home, { lenient: true });
  const store = openCommandStore(home);
  let status;
  try {
    status = await getTeamStatus({ store, home, env: process.env, config, now: new Date() });
  } finally {
    store.close();
  }
  if (options.json) {
    const { connected, waiting, lagSeconds, lastError } = status;
    process.stdout.write(`${JSON.stringify({ connected, waiting, lagSeconds, lastError })}\n`);
    return;
  }
  const lines = [
    status.url === null
      ? `team store: not connected${status.lastError ? ` (${status.lastError})` : ''} — shim team connect postgres://user@host/database`
      : `team store: ${describeTeamTarget(status.url)} (${status.source === 'SHIM_TEAM_URL' ? 'SHIM_TEAM_URL' : 'config'}): ${status.connected ? 'reachable' : 'NOT reachable'}${status.canWrite === false ? ', read-only' : ''}`,
    `  this machine: ${status.machine}, user ${status.osUser}`,
    `  waiting: ${status.waiting}${status.lagSeconds !== null ? `, lag ${status.lagSeconds}s` : ''}; sent: ${status.delivered}${status.lastReached ? `, last reached ${status.lastReached}` : ''}`,
    ...(status.waiting > 0 ? [`  ${nextTry(status)}`] : []),
    ...(status.setAside > 0
      ? [
          `  set aside: ${status.setAside} refused by the server for good, not retried (newest: ${status.lastSetAside})`,
        ]
      : []),
    ...(status.lastError ? [`  last error: ${status.lastError}`] : []),
    ...(status.lastError && status.fix ? [`  fix: ${status.fix}`] : []),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** "next try in 4 min (worker 1234 waits for it)": when the waiting rows go without a command. */
function nextTry(status: { nextAttemptAt: string | null; waiterPid: number | null }): string {
  const at = status.nextAttemptAt === null ? null : Date.parse(status.nextAttemptAt);
  const when = at === null || at <= Date.now() ? 'now' : `in ${formatDuration(at - Date.now())}`;
  return status.waiterPid !== null
    ? `next try ${when} (worker ${status.waiterPid} waits for it)`
    : `next try ${when}: no worker waits now, the next hook (a checkpoint, a session start) starts one, or run shim sync`;
}

/** `shim team pull` (also what a session start runs as a child: app/team/pull-at-start.ts). */
export async function runTeamPull(options: { json?: boolean; quiet?: boolean }): Promise<void> {
  const { config, result } = await pullTeamHere({
    home: getShimHome(),
    env: process.env,
    cwd: process.cwd(),
  });
  if (result === null)
    throw new AppError(
      'TEAM_NOT_CONNECTED',
      config.team.url || process.env.SHIM_TEAM_URL
        ? 'team.resume is off: nothing is pulled from the team store'
        : 'no team store is connected',
      config.team.url || process.env.SHIM_TEAM_URL
        ? 'turn it on in config.json ("team": {"resume": true})'
        : 'run: shim team connect <connection-string>',
    );
  if (options.quiet) return;
  process.stdout.write(
    options.json
      ? `${JSON.stringify(result)}\n`
      : `team store: pulled ${result.pulled} unfinished (the next session here starts from the newest)\n`,
  );
}

/** `shim sync`'s team part: send and pull now, with progress on stderr. */
export async function runTeamSyncNow(json: boolean): Promise<void> {
  const home = getShimHome();
  const config = await loadConfig(home, { lenient: true });
  const store = openCommandStore(home);
  try {
    const result = await syncTeam({
      store,
      home,
      env: process.env,
      config,
      cwd: process.cwd(),
      onProgress: (line) => {
        if (!json) process.stderr.write(`${line}\n`);
      },
    });
    if (result && !json)
      process.stderr.write(
        `team store: sent ${result.sent}, pulled ${result.pulled} unfinished, waiting ${result.waiting}${result.error ? ` (${result.error})` : ''}\n`,
      );
  } finally {
    store.close();
  }
}

type TeamReadOptions = {
  all?: boolean;
  mine?: boolean;
  limit: number;
  json?: boolean;
  cwd?: string;
};

export async function runTeamList(options: TeamReadOptions): Promise<void> {
  const home = getShimHome();
  const { projects, sessions } = await listTeamSessions({
    home,
    env: process.env,
    config: await loadConfig(home, { lenient: true }),
    cwd: options.cwd ?? process.cwd(),
    limit: options.limit,
    ...(options.all ? { all: true } : {}),
    ...(options.mine ? { mine: true } : {}),
  });
  if (options.json) {
    process.stdout.write(`${JSON.stringify(sessions, null, 2)}\n`);
    return;
  }
  if (sessions.length === 0) {
    process.stdout.write(dim(`no team sessions in ${projects.join(', ') || 'your projects'}\n`));
    return;
  }
  const now = Date.now();
  process.stdout.write(
    `${renderTable(
      ['session', 'who', 'last checkpoint', 'open', 'state', 'first request'],
      sessions.map((s) => [
        s.sessionId.slice(0, 8),
        `${s.osUser}@${s.machine}`,
        s.lastCheckpointAt ? formatAge(now - Date.parse(s.lastCheckpointAt)) : '-',
        String(s.openTasks),
        s.endedAt ? 'ended' : 'open',
        (s.firstRequest ?? '').replace(/\s+/g, ' ').slice(0, 50),
      ]),
    )}\n`,
  );
}

export async function runTeamSearch(words: string[], options: TeamReadOptions): Promise<void> {
  const home = getShimHome();
  const query = words.join(' ');
  const { projects, hits } = await searchTeam({
    home,
    env: process.env,
    config: await loadConfig(home, { lenient: true }),
    cwd: options.cwd ?? process.cwd(),
    limit: options.limit,
    query,
    ...(options.all ? { all: true } : {}),
    ...(options.mine ? { mine: true } : {}),
  });
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ query, projects, hits }, null, 2)}\n`);
    return;
  }
  if (hits.length === 0) {
    process.stdout.write(dim(`no team checkpoint matches "${query}" in ${projects.join(', ')}\n`));
    return;
  }
  const now = Date.now();
  for (const h of hits)
    process.stdout.write(
      `${h.sessionId.slice(0, 8)}  ${h.osUser}@${h.machine}  ${formatAge(now - Date.parse(h.createdAt))}  ${h.snippet}\n`,
    );
}
