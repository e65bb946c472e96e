import { Type, type Static, type TSchema } from 'typebox';
import { PERMISSIONS } from '../policy/permissions.ts';

/**
 * The workspace file (YAML): the structure the spec leaves to the browser, declared once and
 * applied idempotently with `atrium workspace apply FILE`. Its JSON Schema (docs/workspace-file.schema.json)
 * is generated from this declaration. Later modules add their own top-level sections.
 */

const Strict = { additionalProperties: false } as const;
const Name = Type.String({ minLength: 1, maxLength: 200 });
/** A member by email address, display name or username. */
const PersonRef = Type.String({ minLength: 1, description: 'a member by email address, display name or username' });
const OneOrList = <T extends TSchema>(item: T) => Type.Array(item);

export const ModuleSwitches = Type.Object(
  {
    boards: Type.Optional(Type.Boolean()),
    sprints: Type.Optional(Type.Boolean()),
    helpdesk: Type.Optional(Type.Boolean()),
    knowledge: Type.Optional(Type.Boolean()),
    time: Type.Optional(Type.Boolean()),
    crm: Type.Optional(Type.Boolean()),
  },
  Strict,
);

export const WorkspaceSection = Type.Object(
  {
    name: Type.Optional(Name),
    rest_api: Type.Optional(Type.Boolean({ description: 'the REST API at /api/v1; off in a new workspace' })),
    mcp: Type.Optional(Type.Boolean({ description: 'the MCP server at /mcp; off in a new workspace' })),
    modules: Type.Optional(ModuleSwitches),
    default_priority: Type.Optional(Name),
    priorities: Type.Optional(Type.Array(Name, { description: 'priorities of projects that declare none, highest first' })),
  },
  Strict,
);

export const MemberEntry = Type.Object(
  {
    name: Name,
    email: Type.Optional(Type.Union([Type.String({ format: 'email' }), Type.Null()])),
    username: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9._-]{1,64}$' })),
    password: Type.Optional(Type.Union([Type.String({ minLength: 8 }), Type.Null()])),
    admin: Type.Optional(Type.Boolean({ description: 'installation administrator: holds every permission' })),
    active: Type.Optional(Type.Boolean()),
    timezone: Type.Optional(Type.String({ description: 'IANA time zone, e.g. Europe/Berlin' })),
  },
  Strict,
);

export const GroupEntry = Type.Object({ name: Name, members: Type.Optional(OneOrList(PersonRef)) }, Strict);

export const RoleEntry = Type.Object(
  { name: Name, permissions: Type.Array(Type.Union(PERMISSIONS.map((p) => Type.Literal(p)))) },
  Strict,
);

export const StatusEntry = Type.Object(
  { name: Name, category: Type.Union([Type.Literal('todo'), Type.Literal('in_progress'), Type.Literal('done'), Type.Null()]) },
  Strict,
);

export const Condition = Type.Union([
  Type.Object({ permission: Type.Union(PERMISSIONS.map((p) => Type.Literal(p))) }, Strict),
  Type.Object({ role: Name }, Strict),
  Type.Object({ assignee_only: Type.Literal(true) }, Strict),
]);

export const Validator = Type.Object(
  {
    require_fields: Type.Array(Name, { minItems: 1, description: 'ticket fields (e.g. fix_versions, assignee) or custom field keys that must have a value' }),
    message: Type.Optional(Type.String({ description: 'the reason given when it refuses' })),
  },
  Strict,
);

export const Screen = Type.Object(
  {
    resolution: Type.Optional(Type.Boolean()),
    assignee: Type.Optional(Type.Boolean()),
    fields: Type.Optional(Type.Array(Name, { description: 'custom field keys the transition asks for' })),
  },
  Strict,
);

export const TransitionEntry = Type.Object(
  {
    name: Name,
    from: Type.Union([Type.Literal('any'), Type.Array(Name, { minItems: 1 })]),
    to: Name,
    conditions: Type.Optional(Type.Array(Condition)),
    validators: Type.Optional(Type.Array(Validator)),
    screen: Type.Optional(Screen),
  },
  Strict,
);

export const WorkflowEntry = Type.Object(
  {
    name: Name,
    statuses: Type.Array(StatusEntry, { minItems: 1, description: 'the first is where a ticket starts' }),
    transitions: Type.Array(TransitionEntry),
  },
  Strict,
);

/** A workflow by name (from `workflows`), or declared in place. */
export const WorkflowRef = Type.Union([Name, WorkflowEntry]);

export const TicketTypeEntry = Type.Union([
  Name,
  Type.Object({ name: Name, workflow: Type.Optional(WorkflowRef), subtask: Type.Optional(Type.Boolean()) }, Strict),
]);

export const ResolutionEntry = Type.Union([Name, Type.Object({ name: Name, default: Type.Optional(Type.Boolean()) }, Strict)]);

export const ComponentEntry = Type.Union([
  Name,
  Type.Object(
    { name: Name, default_assignee: Type.Optional(Type.Union([PersonRef, Type.Null()])), archived: Type.Optional(Type.Boolean()) },
    Strict,
  ),
]);

export const VersionEntry = Type.Union([
  Name,
  Type.Object({ name: Name, archived: Type.Optional(Type.Boolean()), released: Type.Optional(Type.Boolean()) }, Strict),
]);

export const SecurityLevelEntry = Type.Object(
  {
    name: Name,
    members: Type.Optional(Type.Array(PersonRef)),
    groups: Type.Optional(Type.Array(Name)),
    roles: Type.Optional(Type.Array(Name)),
  },
  Strict,
);

export const CustomFieldEntry = Type.Object(
  {
    key: Type.String({ pattern: '^[a-z][a-z0-9_]{0,63}$', description: 'snake_case key used in `fields`' }),
    name: Name,
    type: Type.Union([
      Type.Literal('text'),
      Type.Literal('number'),
      Type.Literal('date'),
      Type.Literal('select'),
      Type.Literal('multi_select'),
      Type.Literal('person'),
    ]),
    choices: Type.Optional(Type.Array(Name)),
    ticket_types: Type.Optional(Type.Array(Name, { description: 'the ticket types that have it; every type when left out' })),
  },
  Strict,
);

export const ProjectRoleEntry = Type.Object(
  { role: Name, members: Type.Optional(Type.Array(PersonRef)), groups: Type.Optional(Type.Array(Name)) },
  Strict,
);

export const ProjectEntry = Type.Object(
  {
    key: Type.String({ pattern: '^[A-Z][A-Z0-9]{1,9}$', description: 'never changes once applied' }),
    name: Name,
    kind: Type.Union([Type.Literal('software'), Type.Literal('helpdesk'), Type.Literal('business'), Type.Literal('sales')]),
    description: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    lead: Type.Optional(Type.Union([PersonRef, Type.Null()])),
    default_assignee: Type.Optional(Type.Union([PersonRef, Type.Null()])),
    workflow: WorkflowRef,
    ticket_types: Type.Array(TicketTypeEntry, { minItems: 1, description: 'the first is the default type' }),
    priorities: Type.Optional(Type.Array(Name)),
    resolutions: Type.Optional(Type.Array(ResolutionEntry)),
    components: Type.Optional(Type.Array(ComponentEntry)),
    versions: Type.Optional(Type.Array(VersionEntry)),
    labels: Type.Optional(Type.Array(Name)),
    security_levels: Type.Optional(Type.Array(SecurityLevelEntry)),
    custom_fields: Type.Optional(Type.Array(CustomFieldEntry)),
    roles: Type.Optional(Type.Array(ProjectRoleEntry)),
  },
  Strict,
);

export const WorkspaceFile = Type.Object(
  {
    workspace: Type.Optional(WorkspaceSection),
    members: Type.Optional(Type.Array(MemberEntry)),
    groups: Type.Optional(Type.Array(GroupEntry)),
    roles: Type.Optional(Type.Array(RoleEntry)),
    workflows: Type.Optional(Type.Array(WorkflowEntry)),
    projects: Type.Optional(Type.Array(ProjectEntry)),
  },
  { ...Strict, title: 'Atrium workspace file' },
);

export type WorkspaceFile = Static<typeof WorkspaceFile>;
export type ProjectEntry = Static<typeof ProjectEntry>;
export type WorkflowEntry = Static<typeof WorkflowEntry>;
