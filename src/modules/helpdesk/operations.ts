import { defineOperation } from '../../core/operation.ts';
import { reorderRequestTypes } from './order.ts';
import { getRequestType, listRequestTypes } from './read.ts';
import {
  CreateRequestTypeBody,
  FormParams,
  ListQuery,
  OrderBody,
  ProjectParams,
  RequestType,
  RequestTypeList,
  UpdateRequestTypeBody,
} from './schemas.ts';
import { createRequestType, retireRequestType, updateRequestType } from './write.ts';

const PUBLISH_RULE =
  'Needs helpdesk:forms, and helpdesk:publish to make a form open (`submission: open`) or change an open one (`can_publish` in list_request_types).';

export const listRequestTypesOperation = defineOperation({
  name: 'list_request_types',
  tool: 'list_request_types',
  method: 'GET',
  path: '/projects/:project/request-types',
  module: 'helpdesk',
  access: 'read',
  summary: 'List request types',
  description:
    "A helpdesk project's forms in portal order: key, name, ticket type, who may submit (`authenticated`, or `open` to anyone), fields. `can_manage`/`can_publish` say what you may change. Pass a form's key or name as `request_type` to create_ticket.",
  params: ProjectParams,
  query: ListQuery,
  response: RequestTypeList,
  errors: ['not_found'],
  handler: (ctx, input) => listRequestTypes(ctx, input.project, input.include_archived ?? false),
});

export const getRequestTypeOperation = defineOperation({
  name: 'get_request_type',
  tool: 'get_request_type',
  method: 'GET',
  path: '/projects/:project/request-types/:request_type',
  module: 'helpdesk',
  access: 'read',
  summary: 'Read a request type',
  description: 'Reads one form of a helpdesk project, named by its key, name or id (case-insensitive). A retired form can still be read.',
  params: FormParams,
  response: RequestType,
  errors: ['not_found', 'invalid'],
  handler: (ctx, input) => getRequestType(ctx, input.project, input.request_type),
});

export const createRequestTypeOperation = defineOperation({
  name: 'create_request_type',
  tool: 'create_request_type',
  method: 'POST',
  path: '/projects/:project/request-types',
  module: 'helpdesk',
  access: 'write',
  summary: 'Create a request type',
  description: `Creates a portal form, last in the portal order. Without \`fields\` it shows the summary and the description. ${PUBLISH_RULE}`,
  params: ProjectParams,
  body: CreateRequestTypeBody,
  response: RequestType,
  status: 201,
  errors: ['not_found', 'forbidden', 'invalid'],
  handler: (ctx, input) => createRequestType(ctx, input.project, input),
});

export const updateRequestTypeOperation = defineOperation({
  name: 'update_request_type',
  tool: 'update_request_type',
  method: 'PATCH',
  path: '/projects/:project/request-types/:request_type',
  module: 'helpdesk',
  access: 'write',
  summary: 'Change a request type',
  description: `Changes a form; send only what changes. Taking an open form off the public, alone, needs helpdesk:forms only. ${PUBLISH_RULE}`,
  params: FormParams,
  body: UpdateRequestTypeBody,
  response: RequestType,
  errors: ['not_found', 'forbidden', 'invalid'],
  handler: (ctx, input) => updateRequestType(ctx, input.project, input.request_type, input),
});

export const reorderRequestTypesOperation = defineOperation({
  name: 'reorder_request_types',
  tool: 'reorder_request_types',
  method: 'POST',
  path: '/projects/:project/request-types/order',
  module: 'helpdesk',
  access: 'write',
  idempotent: true,
  summary: 'Reorder request types',
  description:
    'Puts the active forms named in `order` first, in that order; the rest follow as they were. Needs helpdesk:forms, and helpdesk:publish when an open form moves. Answers the new list.',
  params: ProjectParams,
  body: OrderBody,
  response: RequestTypeList,
  errors: ['not_found', 'forbidden', 'invalid'],
  handler: (ctx, input) => reorderRequestTypes(ctx, input.project, input),
});

export const retireRequestTypeOperation = defineOperation({
  name: 'retire_request_type',
  tool: 'retire_request_type',
  method: 'DELETE',
  path: '/projects/:project/request-types/:request_type',
  module: 'helpdesk',
  access: 'write',
  destructive: true,
  idempotent: true,
  summary: 'Retire a request type',
  description:
    'Archives a form: it leaves the portal and list_request_types, can still be read, and its tickets keep it. There is no un-retiring through the API. Needs helpdesk:forms.',
  params: FormParams,
  response: RequestType,
  errors: ['not_found', 'forbidden', 'invalid'],
  handler: (ctx, input) => retireRequestType(ctx, input.project, input.request_type),
});

export const helpdeskOperations = [
  listRequestTypesOperation,
  getRequestTypeOperation,
  createRequestTypeOperation,
  updateRequestTypeOperation,
  reorderRequestTypesOperation,
  retireRequestTypeOperation,
];
