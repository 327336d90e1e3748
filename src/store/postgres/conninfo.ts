/**
 * libpq's connection strings, read as psql reads them (docs/team.md, "Connecting"): a URI
 * (`postgresql://user@host:5432/db?sslmode=require`, an empty host with `?host=/run/postgresql`,
 * a percent-encoded socket directory, a host list `h1:5432,h2:5433`) or keyword/value pairs
 * (`host=/run/postgresql dbname=shim`), then a service file entry (`service=`/PGSERVICE), then the
 * PG* environment, then libpq's defaults. The URI's parts are decoded by pg's own parser
 * (pg-connection-string); only what it does not take — a host list and the keyword/value form —
 * is split here. Nothing here connects.
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import { parse as parseUri } from 'pg-connection-string';

/** libpq keywords and their values, as given (`host`, `port`, `dbname`, `user`, `password` …). */
export type ConnParams = Record<string, string>;

type Env = Readonly<Record<string, string | undefined>>;

const URI = /^(postgres(?:ql)?):\/\/([^/?#]*)([\s\S]*)$/i;
const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

/** The query keys pg-connection-string fills in itself, which are not libpq keywords. */
const PARSER_ONLY = new Set(['ssl', 'client_encoding', 'db', 'encoding']);

export class ConnStringError extends Error {}

/** Splits `h1:5432,[::1]:5433,%2Frun%2Fpostgresql` into hosts and ports (ports may be ''). */
function splitHostList(spec: string): { hosts: string[]; ports: string[] } {
  const hosts: string[] = [];
  const ports: string[] = [];
  for (const part of spec.split(',')) {
    const m = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(part);
    if (!m) throw new ConnStringError('a host in the URI is not host[:port]');
    hosts.push(decodeURIComponent(m[1]!.replace(/^\[(.*)\]$/, '$1')));
    ports.push(m[2] ?? '');
  }
  return { hosts, ports };
}

function parseUriForm(text: string): ConnParams {
  const m = URI.exec(text.trim());
  if (!m) throw new ConnStringError('not a PostgreSQL URI');
  const [, scheme, authority, rest] = m as unknown as [string, string, string, string];
  const at = authority.lastIndexOf('@');
  const userinfo = at >= 0 ? authority.slice(0, at + 1) : '';
  const hostSpec = at >= 0 ? authority.slice(at + 1) : authority;
  const q = rest.indexOf('?');
  let decoded: Record<string, unknown>;
  try {
    // A stand-in host: the list is ours to split, the user, password and database pg's parser
    // decodes; the query is read as it is (pg's parser would act on sslmode already).
    decoded = parseUri(
      `${scheme}://${userinfo}shim-host${q >= 0 ? rest.slice(0, q) : rest}`,
    ) as Record<string, unknown>;
  } catch {
    throw new ConnStringError('the URI cannot be read');
  }
  const params: ConnParams = {};
  const raw = new URLSearchParams(q >= 0 ? rest.slice(q + 1) : '');
  for (const [key, value] of raw) if (!PARSER_ONLY.has(key)) params[key] = value;
  if (typeof decoded.user === 'string' && decoded.user !== '') params.user ??= decoded.user;
  if (typeof decoded.password === 'string' && decoded.password !== '')
    params.password ??= decoded.password;
  if (typeof decoded.database === 'string' && decoded.database !== '')
    params.dbname ??= decoded.database;
  if (hostSpec !== '') {
    const { hosts, ports } = splitHostList(hostSpec);
    if (params.host === undefined && hosts.some((h) => h !== '')) params.host = hosts.join(',');
    if (params.port === undefined && ports.some((p) => p !== ''))
      params.port = ports.map((p) => p || '5432').join(',');
  }
  return params;
}

/** `key = value` pairs; a value may be 'single quoted', with \' and \\ inside. */
function parseKeywordForm(text: string): ConnParams {
  const params: ConnParams = {};
  let i = 0;
  const s = text;
  const skipSpace = () => {
    while (i < s.length && /\s/.test(s[i]!)) i++;
  };
  for (;;) {
    skipSpace();
    if (i >= s.length) return params;
    const start = i;
    while (i < s.length && /[A-Za-z0-9_]/.test(s[i]!)) i++;
    const key = s.slice(start, i);
    skipSpace();
    if (key === '' || s[i] !== '=')
      throw new ConnStringError('expected keyword=value pairs (host=… dbname=…) or a URI');
    i++;
    skipSpace();
    let value = '';
    if (s[i] === "'") {
      i++;
      for (;;) {
        if (i >= s.length) throw new ConnStringError('a quoted value is not closed');
        if (s[i] === '\\' && i + 1 < s.length) value += s[(i += 2) - 1];
        else if (s[i] === "'") {
          i++;
          break;
        } else value += s[i++];
      }
    } else {
      while (i < s.length && !/\s/.test(s[i]!)) {
        if (s[i] === '\\' && i + 1 < s.length) value += s[(i += 2) - 1];
        else value += s[i++];
      }
    }
    params[key] = value;
  }
}

/**
 * A connection string as libpq keywords; throws ConnStringError (whose message never quotes the
 * string: it may hold a password) for what libpq would refuse.
 */
export function parseConnString(text: string): ConnParams {
  const trimmed = text.trim();
  if (URI.test(trimmed)) return parseUriForm(trimmed);
  const scheme = SCHEME.exec(trimmed)?.[1];
  if (scheme) throw new ConnStringError(`the team store must be PostgreSQL, not ${scheme}`);
  if (trimmed === '') throw new ConnStringError('the connection string is empty');
  return parseKeywordForm(trimmed);
}

/** Whether the string itself carries a password (in the URI's userinfo, `?password=` or `password=`). */
export function hasPassword(text: string): boolean {
  try {
    return (parseConnString(text).password ?? '') !== '';
  } catch {
    // Unreadable: say yes when anything looks like one, so it is never kept.
    return /:[^:@/]+@|password\s*=/i.test(text);
  }
}

/** The string with its password taken out (for a message telling the user what to use instead). */
export function withoutPassword(text: string): string {
  const trimmed = text.trim();
  const uri = URI.exec(trimmed);
  if (uri) {
    const [, scheme, authority, rest] = uri as unknown as [string, string, string, string];
    const at = authority.lastIndexOf('@');
    const user = at >= 0 ? authority.slice(0, at).split(':')[0]! : '';
    const hosts = at >= 0 ? authority.slice(at + 1) : authority;
    const q = rest.indexOf('?');
    const path = q >= 0 ? rest.slice(0, q) : rest;
    // The user's own spelling of the rest is kept: only the password pair goes.
    const tail = (q >= 0 ? rest.slice(q + 1) : '')
      .split('&')
      .filter((pair) => pair !== '' && !/^password=/i.test(pair))
      .join('&');
    return `${scheme}://${user ? `${user}@` : ''}${hosts}${path}${tail ? `?${tail}` : ''}`;
  }
  try {
    const params = parseConnString(trimmed);
    delete params.password;
    return Object.entries(params)
      .map(
        ([k, v]) =>
          `${k}=${/[\s'\\]/.test(v) || v === '' ? `'${v.replace(/['\\]/g, '\\$&')}'` : v}`,
      )
      .join(' ');
  } catch {
    return 'the connection string (without its password)';
  }
}

/** One `[name]` entry of a pg_service.conf file; null when the file or the entry is absent. */
export function readServiceEntry(file: string, name: string): ConnParams | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  let inEntry = false;
  let found: ConnParams | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      inEntry = header[1]!.trim() === name;
      if (inEntry) found ??= {};
      continue;
    }
    const eq = line.indexOf('=');
    if (inEntry && eq > 0) found![line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
  }
  return found;
}

/** libpq's environment variables and the keyword each stands for. */
const ENVIRONMENT: ReadonlyArray<[string, string]> = [
  ['PGHOST', 'host'],
  ['PGHOSTADDR', 'hostaddr'],
  ['PGPORT', 'port'],
  ['PGDATABASE', 'dbname'],
  ['PGUSER', 'user'],
  ['PGPASSWORD', 'password'],
  ['PGPASSFILE', 'passfile'],
  ['PGSSLMODE', 'sslmode'],
  ['PGSSLROOTCERT', 'sslrootcert'],
  ['PGSSLCERT', 'sslcert'],
  ['PGSSLKEY', 'sslkey'],
  ['PGCONNECT_TIMEOUT', 'connect_timeout'],
  ['PGAPPNAME', 'application_name'],
  ['PGOPTIONS', 'options'],
];

/** Where libpq looks for a service name: PGSERVICEFILE or ~/.pg_service.conf, then PGSYSCONFDIR's. */
function serviceFiles(env: Env, home: string): string[] {
  return [
    env.PGSERVICEFILE ?? join(home, '.pg_service.conf'),
    join(env.PGSYSCONFDIR ?? '/etc/postgresql-common', 'pg_service.conf'),
  ];
}

/** Debian's libpq looks for the server's socket here first; else TCP on localhost. */
const DEFAULT_SOCKET_DIRS = ['/var/run/postgresql', '/tmp'];

export type ConnTarget = { host: string; port: number; socket: boolean };

export type ResolvedConn = {
  /** Tried in order, as libpq does with a host list. */
  targets: ConnTarget[];
  user: string;
  database: string;
  /** Given in the string or PGPASSWORD; else the password file is asked per host. */
  password: string | null;
  passfile: string;
  params: ConnParams;
};

/**
 * The parameters libpq would connect with: the string's, then its service entry's, then the
 * environment's, then the defaults (the OS user, a database of the user's name, the local
 * socket). Throws ConnStringError for an unknown service or a malformed port.
 */
export function resolveConn(
  text: string,
  env: Env = process.env,
  home: string = env.HOME ?? homedir(),
): ResolvedConn {
  const params = parseConnString(text);
  const service = params.service ?? env.PGSERVICE;
  if (service) {
    const entry = serviceFiles(env, home)
      .map((file) => readServiceEntry(file, service))
      .find((e) => e !== null);
    if (!entry)
      throw new ConnStringError(
        `no service "${service}" in ${serviceFiles(env, home).join(' or ')}`,
      );
    for (const [key, value] of Object.entries(entry)) params[key] ??= value;
  }
  for (const [variable, key] of ENVIRONMENT) {
    const value = env[variable];
    if (value !== undefined && value !== '') params[key] ??= value;
  }
  let osUser = env.USER ?? 'postgres';
  try {
    osUser = userInfo().username;
  } catch {
    // no passwd entry: the environment's name stands
  }
  const user = params.user || osUser;
  const ports = (params.port ?? '').split(',').map((p) => p.trim());
  const portAt = (i: number): number => {
    const text = (ports.length === 1 ? ports[0] : ports[i]) || '5432';
    const n = Number(text);
    if (!Number.isInteger(n) || n <= 0 || n > 65535)
      throw new ConnStringError(`"${text}" is not a port`);
    return n;
  };
  const named = (params.host || params.hostaddr || '').split(',').map((h) => h.trim());
  const hosts = named.some((h) => h !== '')
    ? named
    : [
        DEFAULT_SOCKET_DIRS.find((dir) => existsSync(join(dir, `.s.PGSQL.${portAt(0)}`))) ??
          'localhost',
      ];
  if (ports.length > 1 && ports.length !== hosts.length)
    throw new ConnStringError(`${hosts.length} hosts but ${ports.length} ports`);
  return {
    targets: hosts.map((host, i) => ({
      host: host || 'localhost',
      port: portAt(i),
      socket: host.startsWith('/'),
    })),
    user,
    database: params.dbname || user,
    password: params.password ? params.password : null,
    passfile: params.passfile || join(home, '.pgpass'),
    params,
  };
}

/** `ada@db1,db2:5432/shim`, `ada@/run/postgresql/shim`: where, for messages. Never a password. */
export function describeConn(text: string, env: Env = process.env): string {
  try {
    const conn = resolveConn(text, env);
    const hosts = conn.targets
      .map((t) => (t.socket ? t.host : `${t.host}${t.port !== 5432 ? `:${t.port}` : ''}`))
      .join(',');
    return `${conn.user}@${hosts}/${conn.database}`;
  } catch {
    return 'the configured team store';
  }
}
