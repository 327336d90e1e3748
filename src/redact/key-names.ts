/**
 * Names that say their value is a credential: `PASSWORD`, `apiKey`, `db_pass2`, `AccountKey`,
 * `weatherApi`, `encryptedPassword`, `SECRET_KEY_BASE`. A name is split into its words (camelCase,
 * snake, kebab, dotted); the word that decides is the last one once qualifiers are dropped
 * (`token_prod`, `password2`, `api_key_value`). Every scanner that reads a name (assignments,
 * declarations, markup, name/value pairs) asks here, so one name means one thing everywhere.
 * @module
 */

/** camelCase / kebab / dotted key → snake_case, lower case. */
export function normalizeKey(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/**
 * Strong: the value is a secret whatever it looks like (only placeholders, code and paths are
 * spared). Weak: the name often holds a secret but also ordinary settings (`SORT_KEY=name`,
 * `auth: basic`), so the value must look generated.
 */
export type KeyStrength = 'strong' | 'weak';

/** Words (after normalizeKey) whose value is a secret. A word ending in one counts too (`dbpass`). */
const STRONG_WORDS = new Set([
  'password',
  'passwd',
  'passphrase',
  'pass',
  'pwd',
  'pw',
  'secret',
  'secrets',
  'token',
  'apikey',
  'mnemonic',
]);
/** Joined forms people write as one word. */
const STRONG_ENDINGS =
  /(?:password|passwd|passphrase|pwd|secret|token|apikey|accesskey|secretkey|privatekey|authkey|passkey)$/;
/** Words ending in `pass` that are not a password (`bypass`, `compass`). */
const NOT_PASS = /(?:bypass|compass|encompass|trespass|surpass|overpass|underpass|impass|sunpass)$/;

/** Two-word names that are strong though their last word alone is weak or none. */
const STRONG_PAIRS = new Set([
  'api_key',
  'access_key',
  'secret_key',
  'private_key',
  'signing_key',
  'encryption_key',
  'master_key',
  'client_secret',
  'auth_key',
  'license_key',
  'account_key',
  'shared_key',
  'consumer_key',
  'app_key',
  'seed_phrase',
  'recovery_phrase',
  'private_key_id',
  'key_data',
  'x_api_key',
  // Firefox's logins.json: both fields encrypted with the profile's key.
  'encrypted_username',
  'encrypted_password',
]);

/** Words whose value is a secret only when it looks generated. */
const WEAK_WORDS = new Set([
  'key',
  'keys',
  'auth',
  'credential',
  'credentials',
  'creds',
  'cred',
  'api',
  'salt',
  'cookie',
  'session',
  'sig',
  'hmac',
  'bearer',
  'jwt',
  'pat',
  'otp',
]);

/** Trailing words that qualify a credential without changing what it is (`token_prod`, `key2`). */
const QUALIFIERS =
  /^(?:\d+|v\d+|prod|production|dev|development|test|testing|stage|staging|live|sandbox|local|old|new|backup|primary|secondary|main|default|value|val|str|string|b64|base64|hex|raw|plain|plaintext|enc|encoded|here|var|env|config|cfg|setting|for|of)$/;

/**
 * Trailing words that turn a credential word into something else: its id, name, length, URL, where
 * it lives, how long it lasts (`token_url`, `key_name`, `password_length`, `secret_ref`).
 */
const NOT_A_CREDENTIAL = new Set(
  (
    'id ids name names type types url uri urls path paths file files dir length len size count ' +
    'counts max min limit limits expiry expires expiration expire ttl timeout age header headers ' +
    'prefix suffix field fields label hint policy policies regex pattern format endpoint host port ' +
    'version ref refs arn index idx mode kind scope scopes usage provider store vault manager ' +
    'helper algorithm algo rotation required enabled disabled valid present exists missing error ' +
    'errors status source location input output placeholder template prompt dialog button text ' +
    'message title column schema reset forgot confirmation confirm strength rules validator ' +
    'visibility visible toggle icon changed updated created issued at budget budgets used window ' +
    'estimate estimates total totals cache cached counter per map list set'
  ).split(' '),
);

/** Words of a name that say it is not a real one (`FAKE_API_KEY`, `nonMatchingToken`). */
const SAYS_NOT_REAL =
  /(?:^|_)(?:fake|dummy|mock|mocked|example|invalid|wrong|incorrect|bogus|non_?matching|not_?matching|nonexistent|placeholder)(?:_|$)/;

/**
 * Names of a form's anti-forgery token (Rails' `authenticity_token`, `csrf_token`, Django's
 * `csrfmiddlewaretoken`, `XSRF-TOKEN`): a value a page hands to every visitor with the form, tied
 * to their session cookie — no credential to an account.
 */
const ANTI_FORGERY = /(?:^|_)(?:csrf|xsrf|csrfmiddlewaretoken|authenticity_token)(?:_|$)/;

function wordStrength(word: string): KeyStrength | null {
  if (STRONG_WORDS.has(word)) return 'strong';
  if (STRONG_ENDINGS.test(word)) return 'strong';
  if (word.length > 4 && word.endsWith('pass') && !NOT_PASS.test(word)) return 'strong';
  if (WEAK_WORDS.has(word)) return 'weak';
  if (/^(?:api|auth)?(?:key|keys)$/.test(word)) return 'weak';
  return null;
}

/**
 * Which kind of secret a name names, if any. The last word that is not a qualifier decides;
 * a credential word earlier in the name (`token_value_for_ci`) still makes it weak.
 */
export function keyStrength(key: string): KeyStrength | null {
  const k = normalizeKey(key);
  if (k === '' || k.length > 80 || SAYS_NOT_REAL.test(k) || ANTI_FORGERY.test(k)) return null;
  // Bundler's credentials for a gem server, `BUNDLE_<HOST>` with the host's dots as `__`
  // (`BUNDLE_GEMS__ACME__IO=user:password`); `BUNDLE_BUILD__<GEM>` holds build flags.
  if (/^BUNDLE_(?!BUILD__)[A-Z0-9_]*[A-Z0-9]__[A-Z]{2,6}$/.test(key)) return 'strong';
  // The shell's working directory, not a password.
  if (key === 'PWD' || key === 'OLDPWD') return null;
  // `token1`, `password2`: a number on a word qualifies it.
  const words = k.split('_').map((w) => (/[a-z]/.test(w) ? w.replace(/\d+$/, '') : w));
  let end = words.length;
  while (end > 1 && QUALIFIERS.test(words[end - 1]!)) end--;
  const last = words[end - 1]!;
  const pair = end >= 2 ? `${words[end - 2]}_${last}` : '';
  if (end >= 3 && STRONG_PAIRS.has(`${words[end - 3]}_${pair}`)) return 'strong';
  // `token_url`, `password_length`: the name is about a credential, not the credential.
  if (NOT_A_CREDENTIAL.has(last)) return null;
  if (STRONG_PAIRS.has(pair)) return 'strong';
  const strength = wordStrength(last);
  if (strength !== null) return strength;
  // A credential word earlier in the name: `secret_key_base`, `api_token_value_ci`.
  return words.slice(0, end - 1).some((w) => wordStrength(w) !== null) ? 'weak' : null;
}
