/**
 * shim's own table of secret formats: for each provider's key, token or credential, its shape as
 * the provider documents it (a fixed prefix, the alphabet and length of the rest) and, where the
 * shape alone would also match ordinary text, the word that must name it in the key it is
 * assigned to. Written from the formats' documented facts (docs/secret-formats.md says where
 * each comes from); secretlint's maintained preset runs beside it (redact.ts), and the general
 * rules (rules.ts: assignments, headers, URLs, private keys) catch what no table can list.
 *
 * A format is data, not a regular expression: ./format-scan.ts builds one matcher per format the
 * first time its prefix or keyword occurs in a text.
 * @module
 */

import type { SecretFormat } from './secret-format.ts';
import { CLOUD_AI_FORMATS } from './formats-cloud-ai.ts';
import { CODE_HOSTING_FORMATS } from './formats-code-hosting.ts';
import { COMMERCE_FORMATS } from './formats-commerce.ts';
import { MESSAGING_FORMATS } from './formats-messaging.ts';
import { WORK_TOOL_FORMATS } from './formats-work-tools.ts';

/** Every format, one file per kind of provider. */
export const SECRET_FORMATS: readonly SecretFormat[] = [
  ...CODE_HOSTING_FORMATS,
  ...CLOUD_AI_FORMATS,
  ...COMMERCE_FORMATS,
  ...MESSAGING_FORMATS,
  ...WORK_TOOL_FORMATS,
];
