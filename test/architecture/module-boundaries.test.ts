import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The module contract (docs/architecture.md) read from the code's own imports: a change that
// reaches into another module's rooms, or makes the kernel import upward, fails here.

const ROOT = path.resolve(import.meta.dirname, '../..');
const SRC = path.join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Relative imports of a file (static, type-only and dynamic), as paths from the repository root. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const found = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]!);
  return found.map((spec) => path.relative(ROOT, path.resolve(path.dirname(file), spec)));
}

const files = sourceFiles(SRC).map((file) => ({ file: path.relative(ROOT, file), imports: importsOf(file) }));

/** `src/modules/<name>/…` → name; null outside the modules. */
const moduleOf = (file: string): string | null => /^src\/modules\/([^/]+)\//.exec(file)?.[1] ?? null;

function violations(rule: (from: string, to: string) => boolean): string[] {
  return files.flatMap(({ file, imports }) => imports.filter((to) => rule(file, to)).map((to) => `${file} -> ${to}`));
}

describe('module contract: a module is reached only through its door (src/modules/<m>/index.ts)', () => {
  it('no file of one module imports another module’s file other than its index.ts', () => {
    expect(
      violations((from, to) => {
        const a = moduleOf(from);
        const b = moduleOf(to);
        return a !== null && b !== null && a !== b && !to.endsWith(`src/modules/${b}/index.ts`);
      }),
    ).toEqual([]);
  });

  it('nothing outside the modules imports a module’s inner files either', () => {
    expect(
      violations((from, to) => moduleOf(from) === null && moduleOf(to) !== null && !/^src\/modules\/[^/]+\/index\.ts$/.test(to)),
    ).toEqual([]);
  });

  it('no module imports the composition root (src/modules/index.ts) or the workspace file’s entry points', () => {
    const roots = ['src/modules/index.ts', 'src/workspace/apply.ts', 'src/workspace/bootstrap.ts', 'src/workspace/engine.ts'];
    expect(violations((from, to) => moduleOf(from) !== null && roots.includes(to))).toEqual([]);
  });
});

describe('module contract: the kernel never imports upward', () => {
  const below: Record<string, string[]> = {
    'src/storage/': ['src/storage/', 'src/config/'],
    'src/policy/': ['src/policy/', 'src/storage/'],
    'src/core/': ['src/core/', 'src/policy/', 'src/storage/', 'src/config/'],
  };
  for (const [layer, allowed] of Object.entries(below)) {
    it(`${layer} imports only ${allowed.join(', ')}`, () => {
      expect(violations((from, to) => from.startsWith(layer) && !allowed.some((prefix) => to.startsWith(prefix)))).toEqual([]);
    });
  }
});

describe('module contract: the OAuth engine and the pages meet at one interface (oauth/member-pages.ts)', () => {
  it('the OAuth engine imports no page', () => {
    expect(violations((from, to) => from.startsWith('src/oauth/') && to.startsWith('src/web/'))).toEqual([]);
  });

  it('nothing outside the engine imports its inner files, only src/oauth/index.ts', () => {
    expect(violations((from, to) => !from.startsWith('src/oauth/') && to.startsWith('src/oauth/') && to !== 'src/oauth/index.ts')).toEqual(
      [],
    );
  });
});

// A page reaches a module only through its door, as everything outside the modules does (above).
describe('the pages: a floor above the modules, one folder of src/web/pages/ per module', () => {
  const pageFolder = (file: string): string | null => /^src\/web\/pages\/([^/]+)\//.exec(file)?.[1] ?? null;

  it('nothing below the pages imports them: only the app (src/app.ts) reaches src/web/', () => {
    const outside = (from: string) => !from.startsWith('src/web/') && from !== 'src/app.ts';
    expect(violations((from, to) => outside(from) && to.startsWith('src/web/'))).toEqual([]);
  });

  it('what the pages share (src/web/ outside pages/) imports no page, but the routes and the OAuth pages', () => {
    const composers = ['src/web/plugin.ts', 'src/web/oauth-pages.ts'];
    const shared = (from: string) => from.startsWith('src/web/') && pageFolder(from) === null && !composers.includes(from);
    expect(violations((from, to) => shared(from) && pageFolder(to) !== null)).toEqual([]);
  });

  it('one module’s pages import no other module’s pages: what they share lives in src/web/', () => {
    const crossing = (from: string, to: string) => pageFolder(to) !== null && pageFolder(from) !== pageFolder(to);
    expect(violations((from, to) => pageFolder(from) !== null && crossing(from, to))).toEqual([]);
  });

  it('no page file lies loose in src/web/pages/', () => {
    expect(files.filter(({ file }) => /^src\/web\/pages\/[^/]+\.ts$/.test(file)).map(({ file }) => file)).toEqual([]);
  });
});
