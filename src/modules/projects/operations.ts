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
  summary: 'List projects',
  description:
    "Projects you can see: key, name and kind. Keys (like `ATR`) name projects everywhere; ticket keys are `<KEY>-<number>`. describe_project gives a project's types, priorities and people.",
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
  summary: 'Describe a project',
  description:
    'A project by key with the names its tickets use: types, priorities, resolutions, components, versions, labels and assignable people. Use these names when creating or changing tickets (case-insensitive).',
  params: Type.Object({ key: ProjectKey }),
  toolArgs: { key: 'project' },
  response: ProjectDetail,
  errors: ['not_found'],
  handler: (ctx, input) => describeProject(ctx, input.key),
});

export const projectOperations = [listProjectsOperation, describeProjectOperation];
