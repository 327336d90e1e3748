/** 164831 → "164,831". Not toLocaleString: loading ICU costs ~18 ms per process (hooks). */
export function formatTokens(n: number): string {
  const rounded = Math.round(n);
  const digits = String(Math.abs(rounded)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return rounded < 0 ? `-${digits}` : digits;
}

/** 8,240 → "8.2k", 31,400 → "31k": thousands, one decimal below 10k. */
export function formatThousands(n: number): string {
  return `${(n / 1000).toFixed(Math.abs(n) < 10_000 ? 1 : 0)}k`;
}
