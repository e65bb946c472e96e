import { assembleHooks, type ModuleDefinition } from '../core/module.ts';
import { createRegistry } from '../core/registry.ts';
import { assembleRecordSwitches, assembleVisibilities } from '../core/visibility.ts';
import type { WorkspaceSectionHandler } from '../workspace/context.ts';
import { WorkspaceEngine } from '../workspace/engine.ts';
import { PLATFORM_SECTIONS } from '../workspace/sections.ts';
import { boardsModule } from './boards/index.ts';
import { crmModule } from './crm/index.ts';
import { helpdeskModule } from './helpdesk/index.ts';
import { knowledgeModule } from './knowledge/index.ts';
import { meModule } from './me/index.ts';
import { projectsModule } from './projects/index.ts';
import { ticketsModule } from './tickets/index.ts';
import { timeModule } from './time/index.ts';

/**
 * The service's modules, in the order the spec lists their operations; their workspace sections
 * are checked and applied in this order too, after the platform's (a module's section may name
 * what an earlier one declared: seed tickets name request types, boards name tickets). The one
 * place that knows every module: everything else reaches a module through its index.ts.
 */
export const modules: readonly ModuleDefinition<WorkspaceSectionHandler>[] = [
  meModule,
  projectsModule,
  helpdeskModule,
  ticketsModule,
  boardsModule,
  knowledgeModule,
  timeModule,
  crmModule,
];

export const registry = createRegistry(modules.flatMap((m) => m.operations));

export const hooks = assembleHooks(modules);

export const visibilities = assembleVisibilities(modules);

export const recordSwitches = assembleRecordSwitches(modules);

export const workspaceEngine = new WorkspaceEngine([...PLATFORM_SECTIONS, ...modules.flatMap((m) => m.workspaceSections ?? [])], hooks);
