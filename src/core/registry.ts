import type { Operation } from './operation.ts';

export interface Registry {
  /** The operations the API doors serve: REST routes, the OpenAPI document and the MCP tools come from these alone. */
  operations: readonly Operation[];
  /** The web-only operations (`doors: 'web'`): run only from the pages. */
  webOnly: readonly Operation[];
  /** Every operation by name, web-only ones included: what the pages run. */
  byName: ReadonlyMap<string, Operation>;
  byTool: ReadonlyMap<string, Operation>;
}

/** Checks the declarations once at start-up, so a clash fails fast rather than at a request. */
export function createRegistry(declared: readonly Operation[]): Registry {
  const byName = new Map<string, Operation>();
  const byTool = new Map<string, Operation>();
  const routes = new Set<string>();
  for (const op of declared) {
    if (byName.has(op.name)) throw new Error(`operation ${op.name} declared twice`);
    byName.set(op.name, op);
    if (op.doors === 'web') {
      if (op.tool !== null || op.path !== '') throw new Error(`${op.name}: a web-only operation has no tool and no path`);
      continue;
    }
    if (op.takenWhileReadOnly) {
      throw new Error(`${op.name}: only a web-only operation is taken while the workspace is read-only`);
    }
    const route = `${op.method} ${op.path.replace(/:\w+/g, ':')}`;
    if (routes.has(route)) throw new Error(`route ${op.method} ${op.path} declared twice`);
    routes.add(route);
    if (op.tool) {
      if (byTool.has(op.tool)) throw new Error(`tool ${op.tool} declared twice`);
      byTool.set(op.tool, op);
    }
    for (const param of Object.keys(op.params.properties)) {
      if (!op.path.includes(`:${param}`)) throw new Error(`${op.name}: path ${op.path} has no :${param}`);
    }
  }
  return {
    operations: declared.filter((op) => op.doors !== 'web'),
    webOnly: declared.filter((op) => op.doors === 'web'),
    byName,
    byTool,
  };
}
