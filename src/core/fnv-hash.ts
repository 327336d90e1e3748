/**
 * A short, stable, non-cryptographic hash (two FNV-1a variants → 16 hex characters), for file
 * names derived from paths or ids. node:crypto would add ~4 ms to every process start.
 */
export function fnvHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

/**
 * A name safe to use as one path component, from any id (a transcript's session id, a payload,
 * an argument, a database row): letters, digits, `_` and `-` only, at most 100 characters. An id
 * that had to change keeps a hash of the original, so two ids never share a file
 * (`../a` and `__a` differ) — and an ordinary id (a UUID) stays exactly as it is.
 */
export function safeFileName(id: string): string {
  const cleaned = id.replace(/[^\w-]/g, '_').slice(0, 100);
  if (cleaned === id && cleaned !== '') return cleaned;
  return `${cleaned.slice(0, 80) || 'id'}-${fnvHash(id)}`;
}
