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
  'Needs helpdesk:forms; making a form open to anyone (`submission: open`), or changing a form while it is open, needs helpdesk:publish too (`can_publish` in list_request_types).';

export const listRequestTypesOperation = defineOperation({
  name: 'list_request_types',
  tool: 'list_request_types',
  method: 'GET',
  path: '/projects/:project/request-types',
  module: 'helpdesk',
  access: 'read',
  summary: 'List a helpdesk project’s request types (portal forms) in portal order',
  description:
    'Lists the forms of a helpdesk project in portal order: key, name, the ticket type each raises, who may submit it (`authenticated` or `open` to anyone), and its fields. Retired forms are left out unless `include_archived` is true. `can_manage` and `can_publish` say whether you may change forms and publish open ones. Only helpdesk projects have forms. Pass a form’s key or name as `request_type` to create_ticket.',
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
  summary: 'Read one request type by key, name or id (a retired one too)',
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
  summary: 'Create a request type (portal form) at the end of the portal order',
  description: `Creates a form in a helpdesk project. \`key\` (letters, digits, dashes, underscores) is unique in the project; \`ticket_type\` is one of the project’s ticket types (see describe_project). \`fields\` lists the form’s fields in order: \`summary\`, \`description\`, \`priority\` or custom field keys of that type; the summary is always displayed and required (put first when left out). Without \`fields\` the form shows the summary and the description. ${PUBLISH_RULE}`,
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
  summary: 'Change a request type: any creation field; fields left out stay',
  description: `Changes a form named by key, name or id; send only what changes (\`fields\`, when sent, replaces the form’s fields). Taking an open form off the public (\`submission: authenticated\`, nothing else changed) needs helpdesk:forms alone. ${PUBLISH_RULE}`,
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
  summary: 'Set the portal order: the forms named first, in that order; the others follow as they were',
  description:
    'Puts the active forms named in `order` (keys, names or ids) first, in that order; forms left out follow in their present order. Needs helpdesk:forms, and helpdesk:publish as well when an open form changes place. Answers the new list.',
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
  summary: 'Retire a request type: the portal stops offering it; tickets raised through it keep it',
  description:
    'Retires (archives) a form named by key, name or id: it leaves the portal and list_request_types (unless include_archived), can still be read, and tickets raised through it keep showing it. There is no un-retiring through the API. Needs helpdesk:forms (an open form too).',
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
