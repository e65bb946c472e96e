import type { ModuleDefinition } from '../../core/module.ts';
import type { WorkspaceSectionHandler } from '../../workspace/context.ts';
import { projectOperations } from './operations.ts';

/**
 * The projects module's door. Projects and their structure (types, priorities, workflows…) are
 * declared by the platform's workspace sections (src/workspace/); this module reads them.
 */
export const projectsModule: ModuleDefinition<WorkspaceSectionHandler> = {
  name: 'projects',
  operations: projectOperations,
};

export { cachedProjectLabels, projectsByKey, projectStructure, type ProjectRow } from './repo.ts';
export { describeProject, loadVisibleProject, resolveVisibleProject, visibleProjects } from './service.ts';
export { Project, ProjectKey } from './schemas.ts';
