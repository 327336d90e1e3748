/**
 * `shim team`: the PostgreSQL team store (docs/team.md).
 * @module
 */
import type { Command } from '@commander-js/extra-typings';

export function defineTeamCommand(program: Command): void {
  const team = program
    .command('team')
    .description(
      'share checkpoints, handoffs and loop runs with your other machines and teammates through PostgreSQL',
    )
    .addHelpText(
      'after',
      `
  The hooks keep writing to the local SQLite store only; a background worker replicates the rows
  to PostgreSQL through the same outbox as the tracker sync, and pulls the team's newest
  unfinished work for your projects so a session started here can continue it (config
  "team": {"resume": false} turns that off). A project is the same on every machine when its
  clones share a git remote.

  The connection string is libpq's, in any form psql takes (a URI, host=… dbname=… pairs,
  service=<name>, a host list); what it leaves out comes from PGHOST, PGUSER, PGDATABASE …
  The password never goes into shim's config: PGPASSWORD or ~/.pgpass, as for psql.

  Examples:
    shim team connect postgres://ada@db.internal:5432/shim?sslmode=require
    shim team connect postgresql://ada@/shim?host=/run/postgresql
    shim team connect "host=/run/postgresql dbname=shim"
    shim team status --json
    shim list --team --mine
    shim search --team "migration failed"`,
    );
  team
    .command('connect')
    .description('connect to a team store: creates its tables if needed, then replicates')
    .argument(
      '<connection-string>',
      'postgresql://user@host:5432/database (?sslmode=…, ?host=/socket/dir), host=… dbname=…, or service=<name>',
    )
    .action(async (url) => (await import('./commands/team.ts')).runTeamConnect(url));
  team
    .command('disconnect')
    .description('stop replicating to and restoring from the team store')
    .action(async () => (await import('./commands/team.ts')).runTeamDisconnect());
  team
    .command('pull')
    .description(
      "fetch the team's newest unfinished work for this project now (a session start does it itself, within 1.5 s)",
    )
    .option('--json', 'print {"pulled"}')
    .option('--quiet', 'print nothing; the exit code says how it went')
    .action(async (options) => (await import('./commands/team.ts')).runTeamPull(options));
  team
    .command('status')
    .description('is the team store reachable, how many rows wait, how far behind, the last error')
    .option('--json', 'print {"connected","waiting","lagSeconds","lastError"}')
    .action(async (options) => (await import('./commands/team.ts')).runTeamStatus(options));
}
