import pg from 'pg';
import { ConfigError } from '../config/config.ts';
import { shellQuote } from './database-place.ts';

const CONNECT_TIMEOUT_SECONDS = 10;

interface Place {
  host: string;
  port: string;
  user: string;
  /** As the URL names it; empty when it names none (the driver then uses the user's name). */
  database: string;
}

/** What DATABASE_URL names (the driver's defaults where it says nothing). */
function placeOf(url: string): Place {
  const parsed = new URL(url);
  return {
    host: parsed.hostname || 'localhost',
    port: parsed.port || '5432',
    user: decodeURIComponent(parsed.username),
    database: decodeURIComponent(parsed.pathname.replace(/^\//, '')),
  };
}

/** `createdb -h HOST -p PORT -U USER NAME`, with only the options the URL gives. */
function createdbCommand(url: string, place: Place, database: string): string {
  const parsed = new URL(url);
  const options = [
    parsed.hostname ? `-h ${shellQuote(place.host)}` : '',
    parsed.port ? `-p ${place.port}` : '',
    place.user ? `-U ${shellQuote(place.user)}` : '',
  ].filter(Boolean);
  return ['createdb', ...options, shellQuote(database)].join(' ');
}

/** One line for a failed connection, naming the variable (DATABASE_URL) and what to do; never the password. */
export function postgresProblem(error: unknown, url: string, variable = 'DATABASE_URL'): string {
  const place = placeOf(url);
  const at = `${place.host}:${place.port}`;
  const { code, message } = error as { code?: string; message?: string };
  switch (code) {
    case '3D000': {
      // The server names the database it looked for, also when the URL names none.
      const database = /database "(.*)" does not exist/.exec(message ?? '')?.[1] ?? place.database;
      return `${variable}: the database "${database}" does not exist on ${at}; create it with: ${createdbCommand(url, place, database)}`;
    }
    case '28P01':
    case '28000':
      return `${variable}: PostgreSQL at ${at} refused the connection (${message ?? code}); check the user and password`;
    case '57P03':
      return `${variable}: PostgreSQL at ${at} is starting up; try again in a moment`;
    case '53300':
      return `${variable}: PostgreSQL at ${at} has too many connections; try again, or raise max_connections`;
    case 'ECONNREFUSED':
      return `${variable}: nothing answers at ${at}; start PostgreSQL there or correct the address`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `${variable}: the host "${place.host}" does not resolve; correct the address`;
    default:
      if (/timeout/i.test(message ?? ''))
        return `${variable}: PostgreSQL at ${at} did not answer within ${CONNECT_TIMEOUT_SECONDS} seconds`;
      return `${variable}: cannot connect to PostgreSQL at ${at}: ${(message ?? String(error)).split('\n')[0]}`;
  }
}

/** Connects once before anything else, so that a wrong DATABASE_URL (or DIRECT_URL) is one line saying what to do. */
export async function checkPostgres(url: string, variable = 'DATABASE_URL'): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_SECONDS * 1000 });
  client.on('error', () => {}); // a connection lost after the check is not this check's business
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    throw new ConfigError(postgresProblem(error, url, variable));
  } finally {
    await client.end().catch(() => {});
  }
}
