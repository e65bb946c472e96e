import { boardsSection } from './apply-boards.ts';
import { groupsSection } from './apply-groups.ts';
import { membersSection } from './apply-members.ts';
import { projectsSection } from './apply-projects.ts';
import { requestTypesSection } from './apply-request-types.ts';
import { rolesSection } from './apply-roles.ts';
import { settingsSection } from './apply-settings.ts';
import { ticketsSection } from './apply-tickets.ts';
import { workflowsSection } from './apply-workflows.ts';
import type { WorkspaceSectionHandler } from './context.ts';

/**
 * The sections of the workspace file in the order they are checked and then applied; each may
 * name what an earlier one declared. A module that extends the file (tickets seeding, boards,
 * spaces, forms, time, CRM) adds its handler here, after the sections it refers to.
 */
export const SECTIONS: readonly WorkspaceSectionHandler[] = [
  settingsSection,
  membersSection,
  groupsSection,
  rolesSection,
  workflowsSection,
  projectsSection,
  requestTypesSection,
  ticketsSection,
  boardsSection,
];
