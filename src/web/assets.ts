import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The pages' scripts and stylesheet, served by Atrium itself (no CDN: a self-hosted service may
 * have no internet): htmx and SortableJS from their npm packages, our own app.js, drag.js and app.css.
 * Each is read, hashed and compressed once per process; its address carries the hash, so it is
 * cached for a year and a new version is a new address.
 */

export type AssetName = 'htmx' | 'sortable' | 'drag' | 'app' | 'style';

interface Source {
  file: string;
  /** The name in the address: `/assets/<stem>.<hash>.<ext>`. */
  stem: string;
  type: 'text/javascript' | 'text/css';
}

// src/web and dist/web are both two floors below the project's root, where src/web/assets lives.
const ROOT = path.resolve(import.meta.dirname, '../..');
const fromPackage = (specifier: string) => createRequire(import.meta.url).resolve(specifier);

const SOURCES: Record<AssetName, () => Source> = {
  htmx: () => ({ file: fromPackage('htmx.org/dist/htmx.min.js'), stem: 'htmx', type: 'text/javascript' }),
  sortable: () => ({ file: fromPackage('sortablejs/Sortable.min.js'), stem: 'sortable', type: 'text/javascript' }),
  // dragging cards on a board and a backlog (loaded with SortableJS, by the pages that drag)
  drag: () => ({ file: path.join(ROOT, 'src/web/assets/drag.js'), stem: 'drag', type: 'text/javascript' }),
  app: () => ({ file: path.join(ROOT, 'src/web/assets/app.js'), stem: 'app', type: 'text/javascript' }),
  style: () => ({ file: path.join(ROOT, 'src/web/assets/app.css'), stem: 'app', type: 'text/css' }),
};

export interface Asset {
  /** Where a page loads it from. */
  href: string;
  type: string;
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
}

function build(source: Source): Asset {
  const identity = fs.readFileSync(source.file);
  const hash = createHash('sha256').update(identity).digest('hex').slice(0, 12);
  const ext = source.type === 'text/css' ? 'css' : 'js';
  return {
    href: `/assets/${source.stem}.${hash}.${ext}`,
    type: `${source.type}; charset=utf-8`,
    identity,
    gzip: gzipSync(identity, { level: 9 }),
    br: brotliCompressSync(identity, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length },
    }),
  };
}

let built: Record<AssetName, Asset> | null = null;

/** Every asset, built at the first call (the app's start) and kept for the process. */
export function assets(): Record<AssetName, Asset> {
  built ??= Object.fromEntries(Object.entries(SOURCES).map(([name, source]) => [name, build(source())])) as Record<AssetName, Asset>;
  return built;
}

export function assetHref(name: AssetName): string {
  return assets()[name].href;
}

/** The encoding to answer with: brotli, then gzip, when the client accepts it (a `;q=0` refuses). */
function encodingFor(request: FastifyRequest): 'br' | 'gzip' | null {
  const accepted = new Map<string, number>();
  for (const part of String(request.headers['accept-encoding'] ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    if (name) accepted.set(name, q === undefined ? 1 : Number(q));
  }
  if ((accepted.get('br') ?? 0) > 0) return 'br';
  if ((accepted.get('gzip') ?? 0) > 0) return 'gzip';
  return null;
}

function send(request: FastifyRequest, reply: FastifyReply, asset: Asset): FastifyReply {
  const encoding = encodingFor(request);
  reply.header('Content-Type', asset.type).header('Cache-Control', 'public, max-age=31536000, immutable').header('Vary', 'Accept-Encoding');
  reply.header('X-Content-Type-Options', 'nosniff');
  if (encoding) reply.header('Content-Encoding', encoding);
  return reply.send(encoding ? asset[encoding] : asset.identity);
}

/** The pages' icon: an "A" on the header's colour, so a tab is found among many. */
export const FAVICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1d2330"/><path d="M9 25 16 7l7 18M11.8 18h8.4" stroke="#fff" stroke-width="3" fill="none" stroke-linecap="round" stroke-linejoin="round"/></svg>';

/** GET /assets/<name>.<hash>.<ext> and the icon, outside the pages' no-store headers. */
export async function assetRoutes(app: FastifyInstance): Promise<void> {
  const byPath = new Map(Object.values(assets()).map((asset) => [asset.href, asset]));
  app.get('/assets/:file', async (request, reply) => {
    const asset = byPath.get(`/assets/${(request.params as { file: string }).file}`);
    if (!asset)
      return reply
        .code(404)
        .type('text/plain; charset=utf-8')
        .header('Cache-Control', 'no-store')
        .send('No such asset: its address changes with each version.');
    return send(request, reply, asset);
  });
  const icon = (_request: unknown, reply: FastifyReply) =>
    reply.type('image/svg+xml').header('Cache-Control', 'public, max-age=86400').send(FAVICON);
  app.get('/favicon.svg', icon);
  app.get('/favicon.ico', icon);
}
