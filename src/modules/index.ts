import type { Operation } from '../core/operation.ts';
import { createRegistry } from '../core/registry.ts';
import { meOperations } from './me/operations.ts';
import { projectOperations } from './projects/operations.ts';

/** Every operation of the service, in the order the spec lists them. */
export const allOperations: readonly Operation[] = [...meOperations, ...projectOperations];

export const registry = createRegistry(allOperations);
