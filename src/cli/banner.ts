import fs from 'node:fs/promises';
import { sql, type Kysely } from 'kysely';
import { verifyPassword } from '../auth/passwords.ts';
import type { Config } from '../config/config.ts';
import { readSettings } from '../core/settings.ts';
import type { DB } from '../storage/schema.ts';
import { DEMO_WORKSPACE_FILE } from '../workspace/bootstrap.ts';
import { parseWorkspaceYaml } from '../workspace/parse.ts';
import { reachThisDatabase, shellQuote } from './database-place.ts';

interface Login {
  email: string;
  /** Known only for the demo administrator whose password is still the demo file's. */
  password: string | null;
}

/** The demo file's first administrator with an email address and a password. */
async function demoAdministrator(): Promise<{ email: string; password: string } | null> {
  try {
    const file = parseWorkspaceYaml(await fs.readFile(DEMO_WORKSPACE_FILE, 'utf8'), 'examples/demo-workspace.yaml') as {
      members?: { email?: unknown; password?: unknown; admin?: unknown }[];
    };
    const admin = (file.members ?? []).find((m) => m.admin === true && typeof m.email === 'string' && typeof m.password === 'string');
    return admin ? { email: admin.email as string, password: admin.password as string } : null;
  } catch {
    return null;
  }
}

/** Who to log in as: the demo administrator while the demo password still works, else any active administrator. */
async function administratorLogin(db: Kysely<DB>): Promise<Login | null> {
  const demo = await demoAdministrator();
  if (demo) {
    const member = await db
      .selectFrom('members')
      .select(['email', 'password_hash'])
      .where(sql<string>`lower(email)`, '=', demo.email.toLowerCase())
      .where('active', '=', true)
      .where('is_admin', '=', true)
      .executeTakeFirst();
    if (member?.email && (await verifyPassword(demo.password, member.password_hash))) {
      return { email: member.email, password: demo.password };
    }
  }
  const admin = await db
    .selectFrom('members')
    .select('email')
    .where('is_admin', '=', true)
    .where('active', '=', true)
    .where('email', 'is not', null)
    .orderBy('created_at')
    .executeTakeFirst();
  return admin?.email ? { email: admin.email, password: null } : null;
}

/**
 * What `atrium serve` tells the person who started it (on stderr; stdout carries the JSON log).
 * Every command it prints carries the DATA_DIR or DATABASE_URL this server uses, so that pasted
 * into another shell it reaches this server and not a new workspace in ./data.
 */
export async function serveBanner(db: Kysely<DB>, config: Config, address: string): Promise<string[]> {
  const login = await administratorLogin(db);
  const settings = await readSettings(db);
  const reach = reachThisDatabase(config);
  const atrium = `${reach.prefix}npx atrium`;
  const lines = [`Atrium is running at ${config.publicUrl} (listening on ${address})`];
  if (login) {
    const password = login.password === null ? '' : ` with password ${login.password}`;
    lines.push(
      `Log in at ${config.publicUrl}/login as ${login.email}${password}`,
      'Mint a token for an agent (it is shown once):',
      `  ${atrium} token create --member ${shellQuote(login.email)} --name "my agent" --access write`,
    );
  } else {
    lines.push(
      'No administrator yet; add one, then give them a password (asked for without echo):',
      `  ${atrium} member add --email you@example.com --name "Your Name" --admin`,
      `  ${atrium} member set-password --member you@example.com`,
    );
  }
  if (!settings.restApi) lines.push(`The REST API is switched off; switch it on with:  ${atrium} settings set rest_api on`);
  if (!settings.mcp) lines.push(`The MCP server is switched off; switch it on with:  ${atrium} settings set mcp on`);
  if (config.databasePooler !== 'none' && config.databaseDirectUrl === null) {
    lines.push(
      'Live updates of open pages are off on this node: behind a pooler it needs DATABASE_DIRECT_URL ' + '(PostgreSQL itself) to LISTEN.',
    );
  }
  if (reach.passwordLeftOut) {
    lines.push('The database password is not printed: give it to these commands as PGPASSWORD (export PGPASSWORD=…).');
  }
  lines.push('Stop with Ctrl+C.');
  return lines;
}
