import path from 'node:path';
import type { Config } from '../config/config.ts';

/**
 * Where a command's database is, said so that a person can see it and a shell can reach it again:
 * `DATA_DIR=/srv/atrium` or `DATABASE_URL=postgres://atrium@db:5432/atrium`. A password in
 * DATABASE_URL is never printed: the URL is shown without it, and PostgreSQL's own PGPASSWORD
 * variable (which the driver reads when the URL has none) carries it.
 */

/** A word for `sh`: as it is when it holds only safe characters, else in single quotes. */
export function shellQuote(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_./:@%+=,-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** DATABASE_URL without its password (in the user part or a `password` parameter). */
export function databaseUrlWithoutPassword(raw: string): { url: string; hadPassword: boolean } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // Not a URL the WHATWG parser takes: show only its scheme, never a part that may hold the password.
    return { url: `${raw.split('//')[0] ?? 'postgres:'}//…`, hadPassword: true };
  }
  let hadPassword = url.password !== '';
  url.password = '';
  for (const name of [...url.searchParams.keys()]) {
    if (/password/i.test(name)) {
      url.searchParams.delete(name);
      hadPassword = true;
    }
  }
  return { url: url.href, hadPassword };
}

function isDefaultDataDir(dataDir: string): boolean {
  return dataDir === path.resolve('data');
}

export interface Reach {
  /** What goes before `npx atrium …` so that a command reaches this database; '' for the default. */
  prefix: string;
  /** True when DATABASE_URL held a password that the prefix leaves out (PGPASSWORD must carry it). */
  passwordLeftOut: boolean;
}

/** The settings a command in another shell needs to reach the database this process uses. */
export function reachThisDatabase(config: Config): Reach {
  if (config.databaseUrl !== null) {
    // a command is one short session: straight to PostgreSQL when the server has a direct URL
    const direct = config.databaseDirectUrl ?? (config.databasePooler === 'none' ? config.databaseUrl : null);
    const { url, hadPassword } = databaseUrlWithoutPassword(direct ?? config.databaseUrl);
    const pooler = direct === null ? `DATABASE_POOLER=${config.databasePooler} ` : '';
    return { prefix: `${pooler}DATABASE_URL=${shellQuote(url)} `, passwordLeftOut: hadPassword };
  }
  if (isDefaultDataDir(config.dataDir)) return { prefix: '', passwordLeftOut: false };
  return { prefix: `DATA_DIR=${shellQuote(config.dataDir)} `, passwordLeftOut: false };
}

/** The database a command looked at, for a one-line message: never a password. */
export function describeDatabase(config: Config): string {
  if (config.databaseUrl !== null) {
    const { url, hadPassword } = databaseUrlWithoutPassword(config.databaseUrl);
    return `DATABASE_URL=${url}${hadPassword ? ' (password not shown)' : ''}`;
  }
  const note = isDefaultDataDir(config.dataDir) ? ' (the default, ./data)' : '';
  return `DATA_DIR=${config.dataDir}${note}`;
}
