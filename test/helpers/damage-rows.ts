/**
 * One checkpoint row of a sound store made unreadable, as a bad disk or a torn write leaves it:
 * its source text cut short, a section whose gzip header is gone, or a stored change
 * (store/checkpoints/checkpoint-chain.ts) whose gzip header is gone. test/damaged-rows.test.ts
 * and `npm run soak` (its recovery part) damage stores this way.
 */
import { join } from 'node:path';
import { DatabaseSync } from '@photostructure/sqlite';

export type RowDamage = 'source' | 'gzip header' | 'delta';

export const ROW_DAMAGES: readonly RowDamage[] = ['source', 'gzip header', 'delta'];

type Row = { id: string; source: string; data: Uint8Array; delta: Uint8Array | null };

/**
 * Damages one row of `shimHome`'s store as `damage` says: a whole row (no change stored) for
 * `source` and `gzip header`, a row stored as a change for `delta`, the one `pick` chooses among
 * them (oldest first). Returns its id, or null when no row has that shape.
 */
export function damageCheckpointRow(
  shimHome: string,
  damage: RowDamage,
  pick: (ids: readonly string[]) => string = (ids) => ids[0]!,
): string | null {
  const db = new DatabaseSync(join(shimHome, 'shim.db'));
  try {
    db.exec('PRAGMA busy_timeout = 10000');
    const rows = db
      .prepare(
        `SELECT id, source, conversation_state AS data, state_delta AS delta FROM checkpoints
         ORDER BY created_at, checkpoint_number`,
      )
      .all() as Row[];
    const shaped = rows.filter((r) => (damage === 'delta') === (r.delta !== null));
    if (shaped.length === 0) return null;
    const id = pick(shaped.map((r) => r.id));
    const row = shaped.find((r) => r.id === id)!;
    const headless = (bytes: Uint8Array) => Buffer.from(bytes).fill(0x5a, 0, 6);
    if (damage === 'source')
      db.prepare('UPDATE checkpoints SET source = ? WHERE id = ?').run(row.source.slice(0, 20), id);
    else if (damage === 'gzip header')
      db.prepare('UPDATE checkpoints SET conversation_state = ? WHERE id = ?').run(
        headless(row.data),
        id,
      );
    else
      db.prepare('UPDATE checkpoints SET state_delta = ? WHERE id = ?').run(
        headless(row.delta!),
        id,
      );
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    return id;
  } finally {
    db.close();
  }
}
