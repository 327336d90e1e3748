/**
 * Private keys that span lines: PEM blocks (`-----BEGIN … PRIVATE KEY-----` … `-----END …-----`,
 * RFC 7468; PKCS#1, PKCS#8, SEC1, OpenSSH, PGP's `PRIVATE KEY BLOCK`), also with their line
 * breaks written as `\n` escapes (a JSON service-account file's `private_key`), and the same
 * blocks base64-encoded once more (a kubeconfig's `client-key-data`, a Kubernetes Secret's
 * `tls.key`).
 *
 * Linear in the text: headers and END lines are each found once, in order, and a block's end is
 * the first END line after its header (never searched for again from each header).
 * @module
 */
import { SPECIFIC, type RawFinding } from './findings.ts';

const HEADER = /-----BEGIN [A-Z0-9 ]{0,40}?PRIVATE KEY(?: BLOCK)?-----/g;
const END_LINE = /-----END [A-Z0-9 ]{0,40}?PRIVATE KEY(?: BLOCK)?-----/g;
/**
 * What follows a header when its END line is missing (the text was cut): base64 runs of 16 or
 * more (shorter runs are words), line breaks (also as escapes), and RFC 1421 headers such as
 * `Proc-Type: 4,ENCRYPTED`.
 */
const BODY =
  /(?:(?:[ \t\r\n]|\\[nrt])*(?:[A-Za-z-]{2,20}: ?[^\n\0\\]{0,200}(?=\n|\\n)|[A-Za-z0-9+/]{16,}={0,2}))*/y;
/** Between a body and its END line: a short last line. */
const SHORT_TAIL = /^(?:[ \t\r\n]|\\[nrt]|[A-Za-z0-9+/=])*$/;
/** One character of a block's body, read backwards from an END line. */
const BODY_CHAR = /[A-Za-z0-9+/= \t\r\n\\]/;
/** Key material: a run of base64 long enough that it is not a word. */
const KEY_MATERIAL = /[A-Za-z0-9+/]{16,}/;

/** `-----BEGIN ` base64-encoded, at each of the three byte alignments a run can start at. */
const ENCODED_HEADER = /(?<![A-Za-z0-9+/])LS0tLS1CRUdJTi[A-Za-z0-9+/]{16,}={0,2}/g;

function decodedHead(run: string): string {
  const head = run.slice(0, 96);
  return Buffer.from(head.slice(0, head.length - (head.length % 4)), 'base64').toString('latin1');
}

export function scanPrivateKeys(text: string): RawFinding[] {
  const findings: RawFinding[] = [];
  if (text.includes('-----BEGIN ') || text.includes('-----END ')) {
    const ends: Array<[number, number]> = [];
    END_LINE.lastIndex = 0;
    for (let m = END_LINE.exec(text); m !== null; m = END_LINE.exec(text))
      ends.push([m.index, m.index + m[0].length]);
    let nextEnd = 0;
    let covered = 0;
    HEADER.lastIndex = 0;
    for (let h = HEADER.exec(text); h !== null; h = HEADER.exec(text)) {
      if (h.index < covered) continue;
      const bodyStart = h.index + h[0].length;
      while (nextEnd < ends.length && (ends[nextEnd] as [number, number])[0] < bodyStart) nextEnd++;
      BODY.lastIndex = bodyStart;
      const body = BODY.exec(text);
      const bodyEnd = bodyStart + (body?.[0].length ?? 0);
      const end = ends[nextEnd];
      // The block's own END line: right after its body (nothing but key material between).
      // (a last line shorter than a base64 run, `AB==`, may stand between them).
      const reachesEnd =
        end !== undefined &&
        (end[0] <= bodyEnd ||
          (end[0] - bodyEnd <= 80 && SHORT_TAIL.test(text.slice(bodyEnd, end[0]))));
      const blockEnd = reachesEnd ? end[1] : bodyEnd;
      if (!KEY_MATERIAL.test(text.slice(bodyStart, Math.min(blockEnd, bodyStart + 4096)))) {
        // An empty block or a lone header holds no key: nothing to hide.
        continue;
      }
      findings.push({ rule: 'private-key', start: h.index, end: blockEnd, priority: SPECIFIC });
      covered = blockEnd;
      HEADER.lastIndex = Math.max(HEADER.lastIndex, blockEnd);
    }
    // An END line whose header is elsewhere (cut off, or in another string): the key material
    // right before it goes too.
    const blocks = findings.length;
    let fi = 0;
    let after = 0;
    for (const [endStart, endEnd] of ends) {
      while (fi < blocks && (findings[fi] as RawFinding).end <= endStart) fi++;
      const block = findings[fi];
      if (fi < blocks && block !== undefined && block.start <= endStart) {
        after = endEnd;
        continue;
      }
      let start = endStart;
      while (start > after && BODY_CHAR.test(text[start - 1] as string)) start--;
      if (KEY_MATERIAL.test(text.slice(start, endStart))) {
        findings.push({ rule: 'private-key', start, end: endEnd, priority: SPECIFIC });
      }
      after = endEnd;
    }
  }
  if (text.includes('LS0tLS1CRUdJTi')) {
    ENCODED_HEADER.lastIndex = 0;
    for (let m = ENCODED_HEADER.exec(text); m !== null; m = ENCODED_HEADER.exec(text)) {
      if (/PRIVATE KEY/.test(decodedHead(m[0]))) {
        findings.push({
          rule: 'private-key',
          start: m.index,
          end: m.index + m[0].length,
          priority: SPECIFIC,
        });
      }
    }
  }
  return findings;
}
