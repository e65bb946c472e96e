import { Type, type Static } from 'typebox';
import { fileEntryFrom } from '../../workspace/schema.ts';
import { CreateRequestTypeBody } from './schemas.ts';

/**
 * `projects[].request_types` of the workspace file: a helpdesk project's forms (spec 2.6), the
 * API's create body plus `archived`. Upserted by key; forms the file leaves out stay as they are.
 */
export const RequestTypeEntry = fileEntryFrom(CreateRequestTypeBody, {
  archived: Type.Optional(
    Type.Boolean({ description: 'retired; left out: a stored form keeps its state (the API may have retired it), a new one is active' }),
  ),
});
export type RequestTypeEntry = Static<typeof CreateRequestTypeBody> & { archived?: boolean };

export const RequestTypeEntries = Type.Array(RequestTypeEntry, {
  description:
    'helpdesk projects only: forms upserted by key, in portal order ahead of forms the file does not list; forms left out stay as they are',
});
