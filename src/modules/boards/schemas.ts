import { Type, type Static } from 'typebox';
import { Nullable, shared, StringEnum, Timestamp, Uuid } from '../../core/schema-kit.ts';
import { Person } from '../../core/shapes.ts';
import { TicketKey, TicketSummary, TransitionBody } from '../tickets/index.ts';

export const BoardKind = StringEnum(['scrum', 'kanban']);
export const SprintState = StringEnum(['future', 'active', 'closed']);

const boardFields = {
  number: Type.Integer(),
  name: Type.String(),
  kind: BoardKind,
  projects: Type.Array(Type.String(), {
    description: 'keys of the projects the board draws from that you can see; a board drawing from every project lists them all',
  }),
  owner: Nullable(Person),
  url: Type.String({ format: 'uri', description: "the board's read-only page in the service" }),
};

export const Board = shared('Board', Type.Object(boardFields));
export type Board = Static<typeof Board>;

export const BoardList = shared('BoardList', Type.Object({ boards: Type.Array(Board) }));

export const Sprint = shared(
  'Sprint',
  Type.Object({
    id: Uuid,
    name: Type.String(),
    goal: Nullable(Type.String()),
    state: SprintState,
    start_at: Nullable(Timestamp),
    end_at: Nullable(Timestamp),
    completed_at: Nullable(Timestamp),
  }),
);
export type Sprint = Static<typeof Sprint>;

export const Column = shared(
  'Column',
  Type.Object({
    index: Type.Integer({ description: 'from 0' }),
    name: Nullable(Type.String()),
    statuses: Type.Array(Type.String(), { description: 'a ticket is in the column holding its status' }),
    min: Nullable(Type.Integer({ description: 'work-in-progress limit: shown, not enforced' })),
    max: Nullable(Type.Integer({ description: 'work-in-progress limit: shown, not enforced' })),
    tickets: Type.Array(TicketSummary, { description: 'in rank order; at most 500 per board view' }),
  }),
);
export type Column = Static<typeof Column>;

export const BoardDetail = shared(
  'BoardDetail',
  Type.Object({
    ...boardFields,
    sprint: Nullable(Sprint),
    columns: Type.Array(Column),
    unmapped: Type.Integer({ description: 'tickets in a status no column shows' }),
    hidden_done: Type.Integer({ description: 'done tickets left off for being done longer than the retention' }),
    done_retention_days: Nullable(
      Type.Integer({ description: 'null keeps done tickets always; counted from resolution, else from the last status change' }),
    ),
  }),
);
export type BoardDetail = Static<typeof BoardDetail>;

export const SprintWithTickets = shared('SprintWithTickets', Type.Object({ ...Sprint.properties, tickets: Type.Array(TicketSummary) }));
export type SprintWithTickets = Static<typeof SprintWithTickets>;

export const CompletedSprint = shared(
  'CompletedSprint',
  Type.Object({ ...Sprint.properties, moved: Type.Array(Type.String(), { description: 'keys of the unfinished tickets moved out' }) }),
);
export type CompletedSprint = Static<typeof CompletedSprint>;

export const DeletedSprint = shared('DeletedSprint', Type.Object({ deleted: Sprint }));

export const Backlog = shared(
  'Backlog',
  Type.Object({
    board: Type.Integer(),
    sprints: Type.Array(SprintWithTickets, {
      description: 'open sprints: the active one first, then future ones in order; none with the sprints module off',
    }),
    backlog: Type.Array(TicketSummary, {
      description: 'open tickets in no open sprint (with the sprints module off: every open ticket), in rank order; at most 500',
    }),
  }),
);
export type Backlog = Static<typeof Backlog>;

export const SprintList = shared(
  'SprintList',
  Type.Object({
    board: Type.Integer(),
    can_manage: Type.Boolean({ description: 'whether you may create, change, start, complete and delete sprints here' }),
    sprints: Type.Array(Sprint, { description: 'every sprint of the board, closed ones included, in order' }),
  }),
);
export type SprintList = Static<typeof SprintList>;

// ---- inputs

export const BoardParams = Type.Object({ number: Type.Integer({ minimum: 1, description: "the board's number" }) });
export const SprintParams = Type.Object({
  number: BoardParams.properties.number,
  sprint: Type.String({ minLength: 1, description: "a sprint's name or id" }),
});

export const BoardQuery = Type.Object({
  sprint: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'scrum boards: a sprint name or id, or `none` for every ticket; left out: the active sprint (every ticket ' +
        'when none is active). With the sprints module off: every ticket, and a sprint named is 403',
    }),
  ),
});

// A ticket of the target list to place the card next to; both left out: the end of the list.
const Placement = {
  before: Type.Optional(Type.String({ minLength: 3, maxLength: 40, description: 'place it before this ticket (key) of the target list' })),
  after: Type.Optional(Type.String({ minLength: 3, maxLength: 40, description: 'place it after this ticket (key) of the target list' })),
};

export const CardMoveBody = Type.Object({
  key: TicketKey,
  column: Type.Union([Type.String({ minLength: 1 }), Type.Integer({ minimum: 0 })], {
    description: "the column's name or its index from 0",
  }),
  ...Placement,
  resolution: TransitionBody.properties.resolution,
  comment: TransitionBody.properties.comment,
  comment_internal: TransitionBody.properties.comment_internal,
  assignee: TransitionBody.properties.assignee,
  fields: TransitionBody.properties.fields,
});
export type CardMoveBody = Static<typeof CardMoveBody>;

export const BacklogMoveBody = Type.Object({
  key: TicketKey,
  sprint: Type.String({ minLength: 1, description: "an open sprint's name or id, or `backlog`" }),
  ...Placement,
});
export type BacklogMoveBody = Static<typeof BacklogMoveBody>;

const SprintDate = (what: string) =>
  Type.String({ minLength: 1, description: `${what}: \`YYYY-MM-DD\` (midnight UTC) or an ISO 8601 time` });

export const CreateSprintBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  goal: Type.Optional(Nullable(Type.String())),
  start_date: Type.Optional(SprintDate('start')),
  end_date: Type.Optional(SprintDate('end')),
});
export type CreateSprintBody = Static<typeof CreateSprintBody>;

export const UpdateSprintBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  goal: Type.Optional(Nullable(Type.String())),
  start_date: Type.Optional(Nullable(SprintDate('start'))),
  end_date: Type.Optional(Nullable(SprintDate('end'))),
});
export type UpdateSprintBody = Static<typeof UpdateSprintBody>;

export const StartSprintBody = Type.Object({
  start_date: Type.Optional(SprintDate('start; now when left out')),
  end_date: Type.Optional(SprintDate('end; required unless the sprint has one')),
});
export type StartSprintBody = Static<typeof StartSprintBody>;

export const CompleteSprintBody = Type.Object({
  move_open_to: Type.Optional(
    Type.String({ minLength: 1, description: "where unfinished tickets go: an open sprint's name or id, or `backlog` (default)" }),
  ),
});
export type CompleteSprintBody = Static<typeof CompleteSprintBody>;
