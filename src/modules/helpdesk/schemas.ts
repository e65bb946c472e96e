import { Type, type Static } from 'typebox';
import { Nullable, shared, StringEnum, Uuid } from '../../core/schema-kit.ts';

export const SUBMISSIONS = ['authenticated', 'open'] as const;
export const Submission = StringEnum(SUBMISSIONS, {
  description: '`authenticated`: people signed in; `open`: anyone, with no account',
});

export const FormField = shared(
  'FormField',
  Type.Object({
    field: Type.String({ description: "`summary`, `description`, `priority` or a custom field's key" }),
    name: Nullable(Type.String({ description: "the field's name in the project; null for a custom field that no longer exists" })),
    displayed: Type.Boolean(),
    required: Type.Boolean(),
    label: Nullable(Type.String({ description: 'what the form calls the field, when not its name' })),
  }),
);
export type FormField = Static<typeof FormField>;

export const RequestType = shared(
  'RequestType',
  Type.Object({
    id: Uuid,
    key: Type.String(),
    name: Type.String(),
    description: Nullable(Type.String()),
    help_text: Nullable(Type.String({ description: 'shown above the form' })),
    portal_group: Nullable(Type.String()),
    hidden: Type.Boolean(),
    submission: Submission,
    ticket_type: Nullable(Type.String({ description: 'the type of the tickets the form raises' })),
    position: Type.Integer({ description: 'place in portal order from 0; retired forms come after the active ones' }),
    archived: Type.Boolean({ description: 'retired: the portal no longer offers it' }),
    fields: Type.Array(FormField, { description: 'in form order; the summary is always displayed and required' }),
  }),
);
export type RequestType = Static<typeof RequestType>;

export const RequestTypeList = shared(
  'RequestTypeList',
  Type.Object({
    project: Type.String({ description: 'project key' }),
    can_manage: Type.Boolean({ description: 'you hold helpdesk:forms here (with a write token)' }),
    can_publish: Type.Boolean({ description: 'you hold helpdesk:publish here (with a write token)' }),
    request_types: Type.Array(RequestType, { description: 'in portal order' }),
  }),
);
export type RequestTypeList = Static<typeof RequestTypeList>;

// ---- requests ----

const ProjectParam = Type.String({ minLength: 1, maxLength: 20, description: "a helpdesk project's key, such as `HELP`" });
const FormName = Type.String({ minLength: 1, maxLength: 255, description: 'a request type by key, name or id' });

// The project is `{project}` in these paths (spec: `{key}`) because the create body has a `key` of its own.
export const ProjectParams = Type.Object({ project: ProjectParam });
export const FormParams = Type.Object({ project: ProjectParam, request_type: FormName });

export const ListQuery = Type.Object({
  include_archived: Type.Optional(Type.Boolean({ default: false, description: 'true: retired forms too, after the active ones' })),
});

export const FormKey = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9_-]+$',
  description: 'letters, digits, dashes and underscores; unique in the project (case-insensitive)',
});

export const FormFieldInput = Type.Object({
  field: Type.String({ minLength: 1, description: "`summary`, `description`, `priority` or a custom field key of the form's ticket type" }),
  displayed: Type.Optional(Type.Boolean({ description: 'true when left out' })),
  required: Type.Optional(Type.Boolean({ description: 'false when left out (true for the summary)' })),
  label: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
});
export type FormFieldInput = Static<typeof FormFieldInput>;

const formFields = {
  key: FormKey,
  name: Type.String({ minLength: 1, maxLength: 255, description: "unique among the project's active forms (case-insensitive)" }),
  ticket_type: Type.String({ minLength: 1, description: 'a ticket type of the project (not a sub-task type), by name' }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 10000 }))),
  help_text: Type.Optional(Nullable(Type.String({ maxLength: 10000, description: 'shown above the form' }))),
  portal_group: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  hidden: Type.Optional(Type.Boolean({ description: "hidden from the portal's list, still reachable by its link; false for a new form" })),
  submission: Type.Optional(Submission),
  fields: Type.Optional(
    Type.Array(FormFieldInput, {
      maxItems: 100,
      description: "in order; replaces the form's fields. The summary is always displayed and required (added first when left out)",
    }),
  ),
};

export const CreateRequestTypeBody = Type.Object(formFields);
export type CreateRequestTypeBody = Static<typeof CreateRequestTypeBody>;

export const UpdateRequestTypeBody = Type.Object({
  key: Type.Optional(formFields.key),
  name: Type.Optional(formFields.name),
  ticket_type: Type.Optional(formFields.ticket_type),
  description: formFields.description,
  help_text: formFields.help_text,
  portal_group: formFields.portal_group,
  hidden: formFields.hidden,
  submission: formFields.submission,
  fields: formFields.fields,
});
export type UpdateRequestTypeBody = Static<typeof UpdateRequestTypeBody>;

export const OrderBody = Type.Object({
  order: Type.Array(FormName, {
    minItems: 1,
    maxItems: 500,
    description: 'active forms by key, name or id, in the order wanted first; forms left out follow in their present order',
  }),
});
export type OrderBody = Static<typeof OrderBody>;
