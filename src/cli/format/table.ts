/** Aligned plain-text columns (ANSI colour codes do not count towards the width). */

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;
const visible = (s: string) => s.replace(ANSI, '').length;

export function renderTable(
  header: string[],
  rows: string[][],
  align: Array<'left' | 'right'> = [],
): string {
  const widths = header.map((h, i) =>
    Math.max(visible(h), ...rows.map((r) => visible(r[i] ?? ''))),
  );
  const pad = (cell: string, i: number) => {
    const gap = ' '.repeat(Math.max(0, widths[i]! - visible(cell)));
    return align[i] === 'right' ? gap + cell : cell + gap;
  };
  return [header, ...rows].map((r) => r.map(pad).join('  ').trimEnd()).join('\n');
}
