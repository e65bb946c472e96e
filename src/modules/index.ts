import type { Operation } from '../core/operation.ts';
import { createRegistry } from '../core/registry.ts';
import { boardOperations } from './boards/operations.ts';
import { helpdeskOperations } from './helpdesk/operations.ts';
import { meOperations } from './me/operations.ts';
import { projectOperations } from './projects/operations.ts';
import { ticketOperations } from './tickets/operations.ts';

/** Every operation of the service, in the order the spec lists them. */
export const allOperations: readonly Operation[] = [
  ...meOperations,
  ...projectOperations,
  ...helpdeskOperations,
  ...ticketOperations,
  ...boardOperations,
];

export const registry = createRegistry(allOperations);
