import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DestinationStream } from 'pino';
import type { LogLevel } from '../../src/config/config.ts';
import type { Registry } from '../../src/core/registry.ts';
import { buildApp } from '../../src/app.ts';
import { createPersonalToken } from '../../src/auth/personal-tokens.ts';
import type { Access } from '../../src/policy/ability.ts';
import type { Database } from '../../src/storage/database.ts';
import type { DB } from '../../src/storage/schema.ts';
import { prepareWorkspace } from '../../src/workspace/bootstrap.ts';
import { parseWorkspaceYaml } from '../../src/workspace/parse.ts';
import { openTestDatabase } from './database.ts';

export const FIXTURES = new URL('../fixtures/', import.meta.url);

export interface StartOptions {
  /** A workspace file (YAML text, or a path under test/fixtures/ ending in .yaml) applied at creation. */
  workspace?: string;
  /** Listen on a real port (for real clients); otherwise use `inject`. */
  listen?: boolean;
  rateLimit?: number;
  now?: () => Date;
  publicUrl?: string;
  /** Operations to serve instead of the service's own (tests of the surfaces themselves). */
  registry?: Registry;
  /** Receives the JSON log lines (at logLevel, `info` when a stream is given); silent otherwise. */
  logStream?: DestinationStream;
  logLevel?: LogLevel;
  /** TRUSTED_PROXIES, as the configuration reads it. */
  trustedProxies?: string[];
  /** METRICS_TOKEN: opens /metrics to this bearer. */
  metricsToken?: string;
  /** SMTP_URL and MAIL_FROM: notifications are queued for email. */
  mail?: { smtpUrl: string; from: string };
}

export interface Reply<T = any> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface TestService {
  app: FastifyInstance;
  database: Database;
  db: Kysely<DB>;
  /** http://127.0.0.1:<port> when listening, else the configured public URL. */
  url: string;
  publicUrl: string;
  /** Mints a personal token for a member named by email. */
  token(email: string, access?: Access, name?: string): Promise<string>;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<Reply<T>>;
  close(): Promise<void>;
}

/** One request to an app, injected (no socket): the body parsed when it is JSON. */
export async function injectRequest<T = any>(
  app: FastifyInstance,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let payload: string | undefined;
  if (options.body !== undefined) {
    payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await app.inject({ method: method as never, url: path, headers, payload });
  let body: unknown;
  try {
    body = response.body ? JSON.parse(response.body) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.statusCode, headers: response.headers, body, text: response.body } as Reply<T>;
}

function loadWorkspace(workspace: string): unknown {
  if (/^[\w./-]+\.ya?ml$/.test(workspace)) {
    return parseWorkspaceYaml(fs.readFileSync(new URL(workspace, FIXTURES), 'utf8'), workspace);
  }
  return parseWorkspaceYaml(workspace, 'test workspace');
}

/** One service per test file: a fresh database from the template, the given workspace applied. */
export async function startTestService(options: StartOptions = {}): Promise<TestService> {
  const database = await openTestDatabase();
  await prepareWorkspace(database.db, {
    demo: false,
    initialWorkspace: loadWorkspace(options.workspace ?? 'workspace.yaml'),
  });
  const publicUrl = options.publicUrl ?? 'http://localhost:8080';
  const app = await buildApp({
    config: {
      publicUrl,
      logLevel: options.logLevel ?? (options.logStream ? 'info' : 'silent'),
      trustedProxies: options.trustedProxies,
      metricsToken: options.metricsToken ?? null,
      mail: options.mail ?? null,
    },
    database,
    registry: options.registry,
    logStream: options.logStream,
    rateLimit: options.rateLimit,
    now: options.now,
    serializers: 'checked',
  });
  let url = publicUrl;
  if (options.listen) url = await app.listen({ port: 0, host: '127.0.0.1' });
  else await app.ready();

  return {
    app,
    database,
    db: database.db,
    url,
    publicUrl,
    async token(email, access = 'write', name = 'test agent') {
      const member = await database.db
        .selectFrom('members')
        .select('id')
        .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
        .executeTakeFirstOrThrow();
      return (await createPersonalToken(database.db, { memberId: member.id, name, access, lifetimeDays: null })).secret;
    },
    request: (method, path, requestOptions) => injectRequest(app, method, path, requestOptions),
    async close() {
      // Keep-alive sockets a real client (a browser) left open must not hold the close up.
      app.server.closeAllConnections();
      await app.close();
      await database.close();
    },
  };
}
