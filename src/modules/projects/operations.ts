import { Type } from 'typebox';
import { defineOperation } from '../../core/operation.ts';
import { ProjectDetail, ProjectKey, ProjectList } from './schemas.ts';
import { describeProject, visibleProjects } from './service.ts';

export const listProjectsOperation = defineOperation({
  name: 'list_projects',
  tool: 'list_projects',
  method: 'GET',
  path: '/projects',
  module: 'core',
  access: 'read',
  summary: 'List the projects you can see',
  description:
    'Lists every project the member can see, with its key, name and kind. Project keys (like `ATR`) name projects everywhere else; ticket keys are `<PROJECT KEY>-<number>`. Call describe_project next for a project\'s ticket types, priorities and people.',
  response: ProjectList,
  handler: async (ctx) => ({ projects: await visibleProjects(ctx) }),
});

export const describeProjectOperation = defineOperation({
  name: 'describe_project',
  tool: 'describe_project',
  method: 'GET',
  path: '/projects/:key',
  module: 'core',
  access: 'read',
  summary: 'Describe one project: its ticket types, priorities, resolutions, components, versions, labels and assignable people',
  description:
    'Reads one project by key with the names its tickets use: ticket types, priorities, resolutions, components, versions, labels, and the people tickets can be assigned to. Use these exact names when creating or changing tickets (matching ignores case).',
  params: Type.Object({ key: ProjectKey }),
  toolArgs: { key: 'project' },
  response: ProjectDetail,
  errors: ['not_found'],
  handler: (ctx, input) => describeProject(ctx, input.key),
});

export const projectOperations = [listProjectsOperation, describeProjectOperation];
