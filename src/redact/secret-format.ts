/**
 * What a secret format is: a provider's key, token or credential described by its documented
 * shape (a fixed prefix, the alphabet and length of the rest) and, where the shape alone would
 * also match ordinary text, the word that must name it. ./secret-formats.ts holds the table;
 * ./format-scan.ts builds one matcher per format.
 * @module
 */

/** The characters a secret's body is made of. */
export type Alphabet =
  | 'digits'
  | 'hex'
  | 'lowerHex'
  | 'alnum'
  | 'lowerAlnum'
  | 'upperAlnum'
  /** letters, digits, `_` and `-` (base64url without padding) */
  | 'urlSafe'
  /** letters, digits, `+`, `/`, with `=` padding */
  | 'base64'
  | 'letters';

export type Length = number | readonly [min: number, max: number];

export type SecretFormat = {
  /** The marker's name: `[REDACTED:<id>]`. */
  id: string;
  /**
   * Who issues it. What it is, in the provider's words, is a comment inside the entry: comments
   * are not shipped, and every hook carries this table.
   */
  provider: string;
  /** Literal prefixes that start every such secret (case as written). */
  prefix?: readonly string[];
  /** The characters after the prefix, and how many. */
  body: { alphabet: Alphabet; length: Length };
  /**
   * Words one of which must stand in the name the value is assigned to (`ASANA_CLIENT_ID=…`,
   * `"sumoToken": "…"`), for shapes that are not unique on their own. Lower case.
   */
  keyword?: readonly string[];
  /** A shape that is more than one run (`<digits>:<token>`): its own pattern source. */
  shape?: string;
  /**
   * For a shape without prefix or keyword: lower-case strings one of which every match holds,
   * so the shape is tried only on texts that have one.
   */
  anchor?: readonly string[];
};

/** The body of the many formats that are 32 hex characters under a keyword. */
export const hexish = { alphabet: 'hex', length: 32 } as const;
