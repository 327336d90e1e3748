/** 164831 → "164,831". Not toLocaleString: loading ICU costs ~18 ms per process (hooks). */
export function formatTokens(n: number): string {
  const rounded = Math.round(n);
  const digits = String(Math.abs(rounded)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return rounded < 0 ? `-${digits}` : digits;
}
