/**
 * One place per table for how a record's camelCase fields map to SQL columns: the record read
 * from a row, the INSERT (or upsert) of a whole record and the SET clause of a patch are all
 * derived from it, so a column is spelled once.
 * @module
 */
export type SqlValue = string | number | null;

/** A plain column, or JSON text holding an object (`{}` or null when unreadable, by `empty`). */
export type FieldMapping =
  { column: string; json?: undefined } | { column: string; json: 'object' | 'object-or-null' };

export type TableMapping<R> = { readonly [K in keyof R]-?: FieldMapping };

export const column = (name: string): FieldMapping => ({ column: name });
export const jsonObject = (name: string): FieldMapping => ({ column: name, json: 'object' });
export const jsonObjectOrNull = (name: string): FieldMapping => ({
  column: name,
  json: 'object-or-null',
});

export function parseJsonObject(text: unknown): Record<string, unknown> | null {
  if (typeof text !== 'string') return null;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function toSql(field: FieldMapping, value: unknown): SqlValue {
  if (field.json) return value === null || value === undefined ? null : JSON.stringify(value);
  return (value ?? null) as SqlValue;
}

export function recordFromRow<R>(mapping: TableMapping<R>, row: Record<string, unknown>): R {
  const record: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(mapping) as Array<[string, FieldMapping]>) {
    const value = row[field.column];
    record[key] = !field.json
      ? value
      : (parseJsonObject(value) ?? (field.json === 'object' ? {} : null));
  }
  return record as R;
}

/** `INSERT INTO table (…) VALUES (?, …)` of every field; with `conflictKeys`, an upsert. */
export function insertSql<R>(
  table: string,
  mapping: TableMapping<R>,
  options: { conflictKeys?: ReadonlyArray<keyof R>; orIgnore?: boolean } = {},
): string {
  const columns = Object.values<FieldMapping>(mapping).map((field) => field.column);
  let sql = `INSERT${options.orIgnore ? ' OR IGNORE' : ''} INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
  if (options.conflictKeys) {
    const keys = new Set(options.conflictKeys.map((k) => mapping[k].column));
    const updates = columns.filter((c) => !keys.has(c)).map((c) => `${c} = excluded.${c}`);
    sql += ` ON CONFLICT(${[...keys].join(', ')}) DO UPDATE SET ${updates.join(', ')}`;
  }
  return sql;
}

/** The record's values in the order of insertSql's columns. */
export function rowValues<R>(mapping: TableMapping<R>, record: R): SqlValue[] {
  return (Object.entries(mapping) as Array<[keyof R & string, FieldMapping]>).map(([key, field]) =>
    toSql(field, record[key]),
  );
}

/** `a = ?, b = ?` and its values for the patch's own fields that the mapping knows. */
export function setClause<R>(
  mapping: TableMapping<R>,
  patch: Partial<R>,
): { sql: string; values: SqlValue[] } {
  const parts: string[] = [];
  const values: SqlValue[] = [];
  for (const [key, value] of Object.entries(patch)) {
    const field = Object.hasOwn(mapping, key)
      ? (mapping as Record<string, FieldMapping>)[key]
      : undefined;
    if (!field || value === undefined) continue;
    parts.push(`${field.column} = ?`);
    values.push(toSql(field, value));
  }
  return { sql: parts.join(', '), values };
}
