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

const ZONES =
  'Times with an offset stand alone; a local time (`2026-03-29T09:00`) or a day needs `timezone` (an IANA name) — through MCP your own time zone is taken when none is given.';

export const listActivitiesOperation = defineOperation({
  name: 'list_activities',
  tool: 'list_activities',
  method: 'GET',
  path: '/activities',
  module: 'time',
  access: 'read',
  summary: 'List activities (time entries), newest first',
  description: `Lists activities you may see — your own, and other members' in projects where you hold time:view_all — newest first. \`from\`/\`to\` are days (inclusive) counted in \`timezone\` (yours when left out; the answer says which). Filters: project key, customer name, ticket key, tag, member (\`me\` or a person), running.`,
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
  summary: 'Read one activity with its history',
  description: 'Reads an activity by id with its history, oldest first: each change with who made it, through which agent, and each field from and to.',
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
  summary: 'Log time, or start a timer',
  description: `Creates one of your activities. With \`end\` or \`duration\` (\`1h 30m\`, \`45m\`, \`2d\`; a day is 8 hours) it is finished; with neither it runs (a timer) — and your running activity, if any, stops where the new one starts. \`start\` is now when left out. ${ZONES} Linking a project, or a ticket (its project comes with it), needs time:log there; \`customer\` is an organization's name (list_organizations).`,
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
  summary: 'Change an activity: any create field; fields left out stay',
  description: `Changes one of your activities; send only what changes. \`null\` or \`""\` for project, customer or ticket clears it; a new \`start\` alone keeps the duration. ${ZONES} An activity in a closed billing phase is locked (403).`,
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
  summary: 'Delete an activity: it leaves every list and total',
  description: 'Deletes one of your activities: it leaves every list and report; its history says so. A locked one (closed billing phase) is refused with 403.',
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
  summary: 'Stop a running activity, now or at a given end',
  description: `Stops your running activity. \`end\` is ISO 8601 with an offset, a local time in \`timezone\`, or \`HH:MM\` on the start's day (in \`timezone\`); now when left out (the body may be empty). An end before the start is 422. ${ZONES}`,
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
  summary: 'List organizations (customers) by name',
  description: 'Lists the organizations time is logged for (customers), by name, with their domains. Use a name as `customer` of an activity.',
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
  summary: 'List billing phases, newest first',
  description: 'Lists billing periods you may see (of a project you can see, or of no project), newest first, optionally of one customer. `rate` and `currency` are given only where you hold time:billing.',
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
  summary: 'Hours report: totals of finished activities, grouped',
  description: `Sums the finished activities you may see between \`from\` and \`to\` (days in \`timezone\`; this month when left out), filtered like list_activities and by \`phase\`, grouped by up to two of day, week, month, member, project, customer, ticket, tag, phase (\`group_by=project,week\`). Each group and the total give seconds, billable seconds, how many activities, and — where you hold time:billing — amounts per currency at the rates of the phases the time falls in. Running activities count once stopped.`,
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
