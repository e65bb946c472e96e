import type { Operation } from './operation.ts';

export interface Registry {
  operations: readonly Operation[];
  byName: ReadonlyMap<string, Operation>;
  byTool: ReadonlyMap<string, Operation>;
}

/** Checks the declarations once at start-up, so a clash fails fast rather than at a request. */
export function createRegistry(operations: readonly Operation[]): Registry {
  const byName = new Map<string, Operation>();
  const byTool = new Map<string, Operation>();
  const routes = new Set<string>();
  for (const op of operations) {
    if (byName.has(op.name)) throw new Error(`operation ${op.name} declared twice`);
    byName.set(op.name, op);
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
  return { operations, byName, byTool };
}
