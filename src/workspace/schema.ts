import { Type, type Static, type TSchema } from 'typebox';
import { StringEnum } from '../core/schema-kit.ts';
import { PERMISSIONS } from '../policy/permissions.ts';
import { RequestTypeEntries } from './request-type-schema.ts';
import { TicketSeeds } from './ticket-seed-schema.ts';

/**
 * The workspace file (YAML): the structure the spec leaves to the browser, declared once and
 * applied idempotently with `atrium workspace apply FILE` (docs/workspace-file.md). Its JSON
 * Schema (docs/workspace-file.schema.json) is generated from this declaration by
 * `npm run workspace:schema`. Later modules add their own sections here and a handler in sections.ts.
 */

export const CUSTOM_FIELD_TYPES = ['text', 'number', 'date', 'select', 'multi_select', 'person'] as const;
export const PROJECT_KINDS = ['software', 'helpdesk', 'business', 'sales'] as const;

const Strict = { additionalProperties: false } as const;
const Name = (description?: string) => Type.String({ minLength: 1, maxLength: 200, ...(description ? { description } : {}) });
const Names = (description: string, options: { minItems?: number } = {}) => Type.Array(Name(), { description, ...options });
const Optional = <T extends TSchema>(schema: T) => Type.Optional(schema);
const OrNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Flag = (description: string) => Type.Boolean({ description });
const PersonRef = Type.String({ minLength: 1, description: 'a member by email address, username or display name' });
const People = (description: string) => Type.Array(PersonRef, { description });
const Permission = StringEnum(PERMISSIONS);

export const ModuleSwitches = Type.Object(
  {
    boards: Optional(Flag('boards')),
    sprints: Optional(Flag('sprints')),
    helpdesk: Optional(Flag('helpdesk forms')),
    knowledge: Optional(Flag('knowledge base')),
    time: Optional(Flag('time tracking')),
    crm: Optional(Flag('CRM')),
  },
  { ...Strict, description: 'module switches; a module left out keeps its setting (every module is on in a new workspace)' },
);

export const WorkspaceSection = Type.Object(
  {
    name: Optional(Name("the workspace's name")),
    rest_api: Optional(Flag('the REST API at /api/v1; off in a new workspace')),
    mcp: Optional(Flag('the MCP server at /mcp; off in a new workspace')),
    modules: Optional(ModuleSwitches),
    default_priority: Optional(Name('the priority a new ticket gets when none is given; must be among every project’s priorities')),
    priorities: Optional(Names('priorities of every project that states none, highest first')),
  },
  { ...Strict, description: 'workspace settings; a setting left out keeps its value' },
);

export const MemberEntry = Type.Object(
  {
    name: Name('display name'),
    email: Optional(OrNull(Type.String({ format: 'email', description: 'identifies the member across applies; null: a member without email (cannot use agents)' }))),
    username: Optional(Type.String({ pattern: '^[A-Za-z0-9._-]{1,64}$', description: 'defaults to the email’s local part, else the name (dev.one); kept once set' })),
    password: Optional(OrNull(Type.String({ minLength: 8, description: 'stored as a scrypt hash; null: cannot log in; left out: unchanged' }))),
    admin: Optional(Flag('installation administrator: holds every permission in every project')),
    active: Optional(Flag('false: deactivated (cannot log in; tokens stop working)')),
    timezone: Optional(Type.String({ description: 'IANA time zone, e.g. Europe/Berlin; UTC in a new member' })),
  },
  Strict,
);

export const GroupEntry = Type.Object(
  { name: Name(), members: Optional(People('the whole membership; left out: unchanged')) },
  Strict,
);

export const RoleEntry = Type.Object(
  { name: Name(), permissions: Type.Array(Permission, { description: 'everything the role grants in a project where it is held' }) },
  Strict,
);

export const StatusEntry = Type.Object(
  { name: Name(), category: OrNull(StringEnum(['todo', 'in_progress', 'done'])) },
  Strict,
);

export const Condition = Type.Union([
  Type.Object({ permission: Permission }, { ...Strict, description: 'the member must hold this permission in the project' }),
  Type.Object({ role: Name('a role from `roles`') }, { ...Strict, description: 'the member must hold this role in the project' }),
  Type.Object({ assignee_only: Type.Literal(true) }, { ...Strict, description: 'only the ticket’s assignee may take it' }),
]);

export const Validator = Type.Object(
  {
    require_fields: Names('ticket fields (assignee, fix_versions, components, due_date, …) or custom field keys that must have a value', {
      minItems: 1,
    }),
    message: Optional(Type.String({ description: 'the reason given when it refuses' })),
  },
  Strict,
);

export const Screen = Type.Object(
  {
    resolution: Optional(Flag('asks for a resolution (the project’s default when none is given)')),
    assignee: Optional(Flag('asks for an assignee')),
    fields: Optional(Names('custom field keys the transition asks for')),
  },
  { ...Strict, description: 'what the transition asks for when it is taken' },
);

export const TransitionEntry = Type.Object(
  {
    name: Name('unique within the workflow'),
    from: Type.Union([Type.Literal('any'), Names('statuses it may be taken from', { minItems: 1 })], {
      description: '`any`, or a list of statuses',
    }),
    to: Name('the status it leads to'),
    conditions: Optional(Type.Array(Condition, { description: 'who may take it; every condition must hold' })),
    validators: Optional(Type.Array(Validator, { description: 'what must be true of the ticket; checked in order' })),
    screen: Optional(Screen),
  },
  Strict,
);

export const WorkflowEntry = Type.Object(
  {
    name: Name('unique in the workspace'),
    statuses: Type.Array(StatusEntry, { minItems: 1, description: 'the first is where a ticket starts' }),
    transitions: Type.Array(TransitionEntry, { description: 'the whole list; transitions left out are deleted' }),
  },
  Strict,
);

/** A workflow by name (from `workflows`), or declared in place. */
export const WorkflowRef = Type.Union([Name('a workflow by name'), WorkflowEntry]);

export const TicketTypeEntry = Type.Union([
  Name(),
  Type.Object(
    {
      name: Name(),
      workflow: Optional(WorkflowRef),
      subtask: Optional(Flag('a sub-task type (its tickets have a parent)')),
    },
    Strict,
  ),
]);

export const ResolutionEntry = Type.Union([
  Name(),
  Type.Object({ name: Name(), default: Optional(Flag('the resolution a transition sets when none is given; at most one')) }, Strict),
]);

export const ComponentEntry = Type.Union([
  Name(),
  Type.Object(
    {
      name: Name(),
      default_assignee: Optional(OrNull(PersonRef)),
      archived: Optional(Flag('kept for the tickets that have it, no longer offered')),
    },
    Strict,
  ),
]);

export const VersionEntry = Type.Union([
  Name(),
  Type.Object(
    {
      name: Name(),
      archived: Optional(Flag('kept for the tickets that have it, no longer offered')),
      released: Optional(Flag('released')),
    },
    Strict,
  ),
]);

export const LabelEntry = Type.Union([
  Name(),
  Type.Object({ name: Name(), archived: Optional(Flag('no longer offered; tickets keep it')) }, Strict),
]);

export const SecurityLevelEntry = Type.Object(
  {
    name: Name(),
    members: Optional(People('members who may see its tickets')),
    groups: Optional(Names('groups whose members may see its tickets')),
    roles: Optional(Names('roles whose holders in the project may see its tickets')),
  },
  { ...Strict, description: 'a security level; who may see it is stated in full' },
);

export const CustomFieldEntry = Type.Object(
  {
    key: Type.String({ pattern: '^[a-z][a-z0-9_]{0,63}$', description: 'snake_case key used in `fields`; identifies the field across applies' }),
    name: Name('the label people see'),
    type: StringEnum(CUSTOM_FIELD_TYPES),
    choices: Optional(Names('the choices of a select or multi_select field (and only of those)')),
    ticket_types: Optional(Names('the ticket types that have it; every type when left out')),
  },
  Strict,
);

export const ProjectRoleEntry = Type.Object(
  {
    role: Name('a role from `roles`'),
    members: Optional(People('members who hold it in this project')),
    groups: Optional(Names('groups whose members hold it in this project')),
  },
  Strict,
);

export const ProjectEntry = Type.Object(
  {
    key: Type.String({ pattern: '^[A-Z][A-Z0-9]{1,9}$', description: 'identifies the project; never changes once applied' }),
    name: Name(),
    kind: StringEnum(PROJECT_KINDS),
    description: Optional(OrNull(Type.String())),
    lead: Optional(OrNull(PersonRef)),
    default_assignee: Optional(OrNull(PersonRef)),
    workflow: WorkflowRef,
    ticket_types: Type.Array(TicketTypeEntry, { minItems: 1, description: 'the first is the default type; each uses the project’s workflow unless it names its own' }),
    priorities: Optional(Names('highest first; left out: the workspace’s `priorities`')),
    resolutions: Optional(Type.Array(ResolutionEntry)),
    components: Optional(Type.Array(ComponentEntry, { description: 'components left out are archived' })),
    versions: Optional(Type.Array(VersionEntry, { description: 'versions left out are archived' })),
    labels: Optional(
      Type.Array(LabelEntry, {
        description: 'stored lowercased with hyphens for spaces; labels left out stay as they are (tickets add labels as they go)',
      }),
    ),
    security_levels: Optional(Type.Array(SecurityLevelEntry)),
    custom_fields: Optional(Type.Array(CustomFieldEntry)),
    roles: Optional(Type.Array(ProjectRoleEntry, { description: 'who holds which role in the project: the whole list' })),
    request_types: Optional(RequestTypeEntries),
    tickets: Optional(TicketSeeds),
  },
  Strict,
);

// Boards (spec 2.5): creating boards and columns is not in the API, so the file declares them.
const BoardColumnEntry = Type.Object(
  {
    name: Optional(OrNull(Name('shown above the column; may be left out'))),
    statuses: Names('status names; a ticket is in the column holding its status'),
    min: Optional(OrNull(Type.Integer({ minimum: 0, description: 'work-in-progress minimum: shown, not enforced' }))),
    max: Optional(OrNull(Type.Integer({ minimum: 0, description: 'work-in-progress maximum: shown, not enforced' }))),
  },
  Strict,
);

const SprintDate = Type.String({ minLength: 1, description: 'YYYY-MM-DD (midnight UTC) or an ISO 8601 time' });

const SprintEntry = Type.Object(
  {
    name: Name('unique on its board'),
    goal: Optional(OrNull(Type.String())),
    state: Optional(StringEnum(['future', 'active', 'closed'], { description: 'future when left out; one active sprint per board' })),
    start_date: Optional(SprintDate),
    end_date: Optional(SprintDate),
    tickets: Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'ticket keys put in the sprint when it is created' })),
  },
  Strict,
);

export const BoardEntry = Type.Object(
  {
    number: Type.Integer({ minimum: 1, description: 'names the board; never changes once applied' }),
    name: Name(),
    kind: StringEnum(['scrum', 'kanban']),
    owner: Optional(OrNull(PersonRef)),
    projects: Type.Union([Type.Literal('all'), Type.Array(Type.String(), { minItems: 1 })], {
      description: 'project keys the board draws from, or `all` for every project',
    }),
    columns: Type.Array(BoardColumnEntry, { minItems: 1, description: 'left to right' }),
    done_retention_days: Optional(
      OrNull(Type.Integer({ minimum: 0, description: 'done tickets done for longer leave the board view; null (default) keeps them' })),
    ),
    sprints: Optional(
      Type.Array(SprintEntry, { description: 'scrum boards only: each is created when the board has no sprint of that name; the API runs them afterwards' }),
    ),
  },
  Strict,
);

export const WorkspaceFile = Type.Object(
  {
    workspace: Optional(WorkspaceSection),
    members: Optional(Type.Array(MemberEntry, { description: 'upserted by email; members left out stay as they are' })),
    groups: Optional(Type.Array(GroupEntry)),
    roles: Optional(Type.Array(RoleEntry)),
    workflows: Optional(Type.Array(WorkflowEntry, { description: 'workflows projects name; a project may also declare one in place' })),
    projects: Optional(Type.Array(ProjectEntry, { description: 'upserted by key; projects left out stay as they are' })),
    boards: Optional(Type.Array(BoardEntry, { description: 'upserted by number; boards left out stay as they are' })),
  },
  { ...Strict, title: 'Atrium workspace file' },
);

export type WorkspaceFile = Static<typeof WorkspaceFile>;
export type WorkspaceSection = Static<typeof WorkspaceSection>;
export type MemberEntry = Static<typeof MemberEntry>;
export type GroupEntry = Static<typeof GroupEntry>;
export type RoleEntry = Static<typeof RoleEntry>;
export type StatusEntry = Static<typeof StatusEntry>;
export type TransitionEntry = Static<typeof TransitionEntry>;
export type WorkflowEntry = Static<typeof WorkflowEntry>;
export type WorkflowRef = Static<typeof WorkflowRef>;
export type TicketTypeEntry = Static<typeof TicketTypeEntry>;
export type CustomFieldEntry = Static<typeof CustomFieldEntry>;
export type SecurityLevelEntry = Static<typeof SecurityLevelEntry>;
export type ProjectRoleEntry = Static<typeof ProjectRoleEntry>;
export type BoardEntry = Static<typeof BoardEntry>;
export type ProjectEntry = Static<typeof ProjectEntry>;
