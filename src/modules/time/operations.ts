import { defineOperation } from '../../core/operation.ts';
import { createActivity, deleteActivity, stopActivity, updateActivity } from './activities.ts';
import { getActivity, listActivities, listOrganizations, listPhases } from './read.ts';
import { reportHours } from './report.ts';
import {
  Activity,
  ActivityBody,
  ActivityDetail,
  ActivityList,
  ActivityParams,
  DeletedActivity,
  HoursQuery,
  HoursReport,
  ListActivitiesQuery,
  OrganizationList,
  PhaseList,
  PhasesQuery,
  StopBody,
} from './schemas.ts';

const ZONES = 'A local time or day is read in `timezone` (through MCP, yours when left out).';

export const listActivitiesOperation = defineOperation({
  name: 'list_activities',
  tool: 'list_activities',
  method: 'GET',
  path: '/activities',
  module: 'time',
  access: 'read',
  summary: 'List activities',
  description:
    "Your activities and, where you hold time:view_all, other members', newest first. `from`/`to` are days (inclusive) in `timezone` (yours when left out; the answer says which).",
  query: ListActivitiesQuery,
  response: ActivityList,
  errors: ['invalid'],
  handler: (ctx, input) => listActivities(ctx, input),
});

export const getActivityOperation = defineOperation({
  name: 'get_activity',
  tool: 'get_activity',
  method: 'GET',
  path: '/activities/:id',
  module: 'time',
  access: 'read',
  summary: 'Read an activity',
  description:
    'Reads an activity by id with its history, oldest first: each change with who made it, through which agent, and each field from and to.',
  params: ActivityParams,
  response: ActivityDetail,
  errors: ['not_found'],
  handler: (ctx, input) => getActivity(ctx, input.id),
});

export const createActivityOperation = defineOperation({
  name: 'create_activity',
  tool: 'create_activity',
  method: 'POST',
  path: '/activities',
  module: 'time',
  access: 'write',
  summary: 'Log time or start a timer',
  description: `Creates one of your activities: with \`end\` or \`duration\` it is finished; with neither it is a running timer, and your running one stops where it starts. Linking a project or ticket needs time:log there; \`customer\` is an organization (list_organizations). ${ZONES}`,
  body: ActivityBody,
  response: Activity,
  status: 201,
  errors: ['invalid', 'invalid_duration', 'forbidden'],
  handler: (ctx, input) => createActivity(ctx, input),
});

export const updateActivityOperation = defineOperation({
  name: 'update_activity',
  tool: 'update_activity',
  method: 'PATCH',
  path: '/activities/:id',
  module: 'time',
  access: 'write',
  summary: 'Change an activity',
  description: `Changes one of your activities; send only what changes (null or "" clears project, customer or ticket; a new \`start\` alone keeps the duration). In a closed billing phase it is locked (403). ${ZONES}`,
  params: ActivityParams,
  body: ActivityBody,
  response: Activity,
  errors: ['not_found', 'invalid', 'invalid_duration', 'forbidden'],
  handler: (ctx, input) => updateActivity(ctx, input.id, input),
});

export const deleteActivityOperation = defineOperation({
  name: 'delete_activity',
  tool: 'delete_activity',
  method: 'DELETE',
  path: '/activities/:id',
  module: 'time',
  access: 'write',
  destructive: true,
  idempotent: false,
  summary: 'Delete an activity',
  description:
    'Deletes one of your activities: it leaves every list and report; its history says so. A locked one (closed billing phase) is refused with 403.',
  params: ActivityParams,
  response: DeletedActivity,
  errors: ['not_found', 'forbidden'],
  handler: (ctx, input) => deleteActivity(ctx, input.id),
});

export const stopActivityOperation = defineOperation({
  name: 'stop_activity',
  tool: 'stop_activity',
  method: 'POST',
  path: '/activities/:id/stop',
  module: 'time',
  access: 'write',
  summary: 'Stop the running activity',
  description: `Stops your running activity at \`end\` (now when left out; the body may be empty). An end before the start is 422. ${ZONES}`,
  params: ActivityParams,
  body: StopBody,
  response: Activity,
  errors: ['not_found', 'invalid', 'forbidden'],
  handler: (ctx, input) => stopActivity(ctx, input.id, input),
});

export const listOrganizationsOperation = defineOperation({
  name: 'list_organizations',
  tool: 'list_organizations',
  method: 'GET',
  path: '/organizations',
  module: 'time',
  access: 'read',
  summary: 'List organizations',
  description:
    'Lists the organizations time is logged for (customers), by name, with their domains. Use a name as `customer` of an activity.',
  response: OrganizationList,
  errors: [],
  handler: (ctx) => listOrganizations(ctx),
});

export const listPhasesOperation = defineOperation({
  name: 'list_phases',
  tool: 'list_phases',
  method: 'GET',
  path: '/phases',
  module: 'time',
  access: 'read',
  summary: 'List billing phases',
  description:
    'Lists billing periods you may see (of a project you can see, or of no project), newest first, optionally of one customer. `rate` and `currency` are given only where you hold time:billing.',
  query: PhasesQuery,
  response: PhaseList,
  errors: ['invalid'],
  handler: (ctx, input) => listPhases(ctx, input.customer),
});

export const reportHoursOperation = defineOperation({
  name: 'report_hours',
  tool: 'report_hours',
  method: 'GET',
  path: '/reports/hours',
  module: 'time',
  access: 'read',
  summary: 'Hours report',
  description:
    "Sums the finished activities you may see between `from` and `to` (this month when left out), filtered like list_activities and by `phase`, grouped by up to two keys. Each group and the total: seconds, billable seconds, count and, where you hold time:billing, amounts per currency at the phases' rates.",
  query: HoursQuery,
  response: HoursReport,
  errors: ['invalid'],
  handler: (ctx, input) => reportHours(ctx, input),
});

export const timeOperations = [
  listActivitiesOperation,
  getActivityOperation,
  createActivityOperation,
  updateActivityOperation,
  deleteActivityOperation,
  stopActivityOperation,
  listOrganizationsOperation,
  listPhasesOperation,
  reportHoursOperation,
];
