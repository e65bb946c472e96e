import type { ModuleDefinition } from '../../core/module.ts';
import type { WorkspaceSectionHandler } from '../../workspace/context.ts';
import { timeOperations } from './operations.ts';
import { activityVisibility } from './policy.ts';
import { timeSection } from './workspace-section.ts';

/** The time-tracking module's door: activities (timers and logged time), organizations, billing phases and the hours report. */
export const timeModule: ModuleDefinition<WorkspaceSectionHandler> = {
  name: 'time',
  switch: 'time',
  operations: timeOperations,
  workspaceSections: [timeSection],
  visibility: { activity: activityVisibility },
};

// What the pages read of time tracking, run through its operations (list_activities).
export type { Activity, ActivityList } from './schemas.ts';

// The member's own activities named, for the pages' account of what agents did.
export { ownActivitiesNamed } from './named.ts';
