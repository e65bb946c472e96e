import { Type, type Static, type TSchema } from 'typebox';
import { StringEnum } from '../core/schema-kit.ts';

/**
 * `projects[].request_types` of the workspace file: a helpdesk project's forms (spec 2.6),
 * applied by apply-request-types.ts. Upserted by key; forms the file leaves out stay as they are.
 */
const Strict = { additionalProperties: false } as const;
const OrNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const RequestTypeFieldEntry = Type.Object(
  {
    field: Type.String({ minLength: 1, description: '`summary`, `description`, `priority` or a custom field key of the form’s ticket type' }),
    displayed: Type.Optional(Type.Boolean({ description: 'true when left out' })),
    required: Type.Optional(Type.Boolean({ description: 'false when left out (the summary is always displayed and required)' })),
    label: Type.Optional(OrNull(Type.String({ maxLength: 255, description: 'what the form calls the field' }))),
  },
  Strict,
);

export const RequestTypeEntry = Type.Object(
  {
    key: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: 'identifies the form in the project; letters, digits, dashes, underscores' }),
    name: Type.String({ minLength: 1, maxLength: 255, description: 'unique among the project’s active forms' }),
    ticket_type: Type.String({ minLength: 1, description: 'a ticket type of the project (not a sub-task type)' }),
    description: Type.Optional(OrNull(Type.String())),
    help_text: Type.Optional(OrNull(Type.String({ description: 'shown above the form' }))),
    portal_group: Type.Optional(OrNull(Type.String({ maxLength: 255 }))),
    hidden: Type.Optional(Type.Boolean({ description: 'left off the portal’s list, still reachable by its link' })),
    submission: Type.Optional(StringEnum(['authenticated', 'open'], { description: '`authenticated` (default): people signed in; `open`: anyone' })),
    fields: Type.Optional(Type.Array(RequestTypeFieldEntry, { description: 'in order; left out: the summary and the description' })),
    archived: Type.Optional(Type.Boolean({ description: 'retired; left out: a stored form keeps its state (the API may have retired it), a new one is active' })),
  },
  Strict,
);
export type RequestTypeEntry = Static<typeof RequestTypeEntry>;

export const RequestTypeEntries = Type.Array(RequestTypeEntry, {
  description: 'helpdesk projects only: forms upserted by key, in portal order ahead of forms the file does not list; forms left out stay as they are',
});
