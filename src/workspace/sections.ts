import { groupsSection } from './apply-groups.ts';
import { membersSection } from './apply-members.ts';
import { projectsSection } from './apply-projects.ts';
import { rolesSection } from './apply-roles.ts';
import { settingsSection } from './apply-settings.ts';
import { workflowsSection } from './apply-workflows.ts';
import type { WorkspaceSectionHandler } from './context.ts';

/**
 * The platform's sections of the workspace file, in the order they are checked and then applied;
 * each may name what an earlier one declared. Modules' sections follow (modules/index.ts).
 */
export const PLATFORM_SECTIONS: readonly WorkspaceSectionHandler[] = [
  settingsSection,
  membersSection,
  groupsSection,
  rolesSection,
  workflowsSection,
  projectsSection,
];
