import { Type, type Static } from 'typebox';
import { DateOnly, INT32_MAX, Nullable, Offset, shared, StringEnum, Timestamp, Uuid } from '../../core/schema-kit.ts';
import { Person, Reference, RichText, Status, Transition } from '../../core/shapes.ts';

export const TicketKey = Type.String({
  minLength: 3,
  maxLength: 40,
  description: 'A ticket key such as `ATR-12` (case-insensitive)',
});

export const Link = shared(
  'Link',
  Type.Object({
    relation: Type.String({ description: "read from this ticket, e.g. 'is blocked by'" }),
    ticket: Type.String({ description: "the other ticket's key" }),
    summary: Type.String(),
    status: Nullable(Status),
  }),
);
export type Link = Static<typeof Link>;

/** Spec 2.4: on a ticket of a sales project, to a member who may see the CRM. */
export const Deal = shared(
  'Deal',
  Type.Object({
    company: Nullable(Reference),
    value: Nullable(Type.String({ description: 'in its own currency, never converted (custom field deal_value)' })),
    currency: Nullable(Type.String({ description: 'custom field deal_currency' })),
    expected_close: Nullable(DateOnly),
    probability: Nullable(Type.String({ description: 'custom field probability' })),
    lost_reason: Nullable(Type.String({ description: 'asked by the transition Lost' })),
    contacts: Type.Array(Type.Object({ id: Uuid, name: Type.String(), role: Nullable(Type.String()) }), {
      description: 'the people on the deal (readable, not changeable through the API)',
    }),
  }),
);
export type Deal = Static<typeof Deal>;

const summaryFields = {
  key: Type.String(),
  summary: Type.String(),
  project: Nullable(Type.String({ description: 'project key' })),
  type: Nullable(Type.String()),
  status: Nullable(Status),
  priority: Nullable(Type.String()),
  assignee: Nullable(Person),
  labels: Type.Array(Type.String()),
  updated_at: Nullable(Timestamp),
  url: Type.String({ format: 'uri', description: "the ticket's page in the service" }),
};

export const TicketSummary = shared('TicketSummary', Type.Object(summaryFields));
export type TicketSummary = Static<typeof TicketSummary>;

const ticketFields = {
  ...summaryFields,
  description: Nullable(RichText),
  environment: Nullable(RichText),
  resolution: Nullable(Type.String()),
  reporter: Nullable(Person),
  parent: Nullable(Type.String({ description: 'key of the epic or the ticket a sub-task belongs to' })),
  components: Type.Array(Type.String()),
  fix_versions: Type.Array(Type.String()),
  affected_versions: Type.Array(Type.String()),
  security_level: Nullable(Type.String()),
  request_type: Nullable(Type.String()),
  due_date: Nullable(DateOnly),
  created_at: Nullable(Timestamp),
  resolved_at: Nullable(Timestamp),
  original_estimate_seconds: Nullable(Type.Integer()),
  remaining_estimate_seconds: Nullable(Type.Integer()),
  time_spent_seconds: Nullable(Type.Integer()),
  fields: Type.Optional(
    Type.Record(Type.String(), Type.String(), {
      description: 'custom fields that have a value, by field key, as the ticket page shows them',
    }),
  ),
  deal: Type.Optional(Deal),
};

export const Ticket = shared('Ticket', Type.Object(ticketFields));
export type Ticket = Static<typeof Ticket>;

export const CommentVisibility = StringEnum(['public', 'internal', 'restricted']);

export const Comment = shared(
  'Comment',
  Type.Object({
    id: Uuid,
    author: Nullable(Person),
    body: Nullable(RichText),
    visibility: CommentVisibility,
    created_at: Timestamp,
    edited_at: Nullable(Timestamp),
  }),
);
export type Comment = Static<typeof Comment>;

const worklogFields = {
  id: Uuid,
  author: Nullable(Person),
  started_at: Timestamp,
  time_spent_seconds: Type.Integer(),
  time_spent: Type.String({ description: 'like `1h 30m`; a day is 8 hours, a week 5 days' }),
  body: Nullable(RichText),
  created_at: Timestamp,
  edited_at: Nullable(Timestamp),
};

export const Worklog = shared('Worklog', Type.Object(worklogFields));
export type Worklog = Static<typeof Worklog>;

export const LoggedWork = shared(
  'LoggedWork',
  Type.Object({
    ...worklogFields,
    ticket: Type.Object({
      key: Type.String(),
      time_spent_seconds: Type.Integer(),
      remaining_estimate_seconds: Nullable(Type.Integer()),
    }),
  }),
);
export type LoggedWork = Static<typeof LoggedWork>;

export const TicketDetail = shared(
  'TicketDetail',
  Type.Object({
    ...ticketFields,
    comments: Type.Array(Comment, { description: 'oldest first' }),
    worklogs: Type.Array(Worklog, { description: 'newest first' }),
    links: Type.Array(Link),
    subtasks: Type.Array(TicketSummary),
    transitions: Type.Array(Transition, { description: 'those the member can take now' }),
  }),
);
export type TicketDetail = Static<typeof TicketDetail>;

export const TicketTransitions = shared(
  'TicketTransitions',
  Type.Object({ key: Type.String(), status: Status, transitions: Type.Array(Transition) }),
);
export type TicketTransitions = Static<typeof TicketTransitions>;

export const TicketSearchResult = shared(
  'TicketSearchResult',
  Type.Object({
    total: Type.Integer({ description: 'with a query, at most 250' }),
    limit: Type.Integer(),
    offset: Type.Integer(),
    tickets: Type.Array(TicketSummary),
  }),
);
export type TicketSearchResult = Static<typeof TicketSearchResult>;

// ---- requests ----

const Name = Type.String({ minLength: 1 });
const Markdown = Type.String({ description: 'Markdown' });
const CustomFieldValues = Type.Record(Type.String(), Type.Unknown(), {
  description: 'custom fields by key: a choice by its words, a list if multi-valued, `YYYY-MM-DD`, a number; null or "" clears',
});

const DealCompany = Type.String({
  minLength: 1,
  maxLength: 255,
  description: "sales projects: the deal's company by name or id (PATCH: null clears it)",
});

export const SearchSort = StringEnum(['relevance', 'updated', 'created', 'priority', 'key']);
export const SearchStatus = StringEnum(['open', 'todo', 'in_progress', 'done'], {
  description: 'a status category; `open` is anything not done',
});

export const SearchQuery = Type.Object({
  query: Type.Optional(Type.String({ description: 'words (and beginnings of words) to find, or a ticket key' })),
  project: Type.Optional(Type.String({ description: 'project key' })),
  status: Type.Optional(SearchStatus),
  assignee: Type.Optional(Type.String({ description: '`me`, `unassigned`, or a person' })),
  reporter: Type.Optional(Type.String({ description: '`me` or a person' })),
  label: Type.Optional(Type.String()),
  type: Type.Optional(Type.String({ description: 'ticket type name' })),
  sort: Type.Optional(SearchSort),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  offset: Type.Optional(Offset),
});
export type SearchQuery = Static<typeof SearchQuery>;

export const CreateTicketBody = Type.Object({
  project: Type.String({ minLength: 1, description: 'project key' }),
  summary: Type.String({ minLength: 1, maxLength: 255 }),
  description: Type.Optional(Markdown),
  type: Type.Optional(Name),
  request_type: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        "helpdesk projects: an active request type (form) by key or name; with `type` left out, the ticket gets the form's ticket type",
    }),
  ),
  priority: Type.Optional(Name),
  assignee: Type.Optional(Nullable(Type.String({ minLength: 1, description: '`me`, a display name, an email address or a member id' }))),
  labels: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  components: Type.Optional(Type.Array(Name)),
  parent: Type.Optional(Type.String({ minLength: 1, description: 'key of a ticket in the same project' })),
  due_date: Type.Optional(DateOnly),
  fields: Type.Optional(CustomFieldValues),
  company: Type.Optional(DealCompany),
});
export type CreateTicketBody = Static<typeof CreateTicketBody>;

export const UpdateTicketBody = Type.Object({
  summary: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  description: Type.Optional(Nullable(Markdown)),
  type: Type.Optional(Name),
  priority: Type.Optional(Name),
  assignee: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
  labels: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'replaces the labels; [] removes all' })),
  components: Type.Optional(Type.Array(Name, { description: 'replaces the components' })),
  parent: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
  due_date: Type.Optional(Nullable(DateOnly)),
  fields: Type.Optional(CustomFieldValues),
  company: Type.Optional(Nullable(DealCompany)),
});
export type UpdateTicketBody = Static<typeof UpdateTicketBody>;

export const TransitionBody = Type.Object({
  transition: Type.String({ minLength: 1, description: 'a transition name, id, or the name of the status it leads to' }),
  resolution: Type.Optional(Name),
  comment: Type.Optional(Markdown),
  comment_internal: Type.Optional(Type.Boolean()),
  assignee: Type.Optional(Type.String({ minLength: 1 })),
  fields: Type.Optional(CustomFieldValues),
});
export type TransitionBody = Static<typeof TransitionBody>;

export const AssigneeBody = Type.Object({
  assignee: Nullable(Type.String({ minLength: 1, description: '`me`, a display name, an email address or a member id; null unassigns' })),
  comment: Type.Optional(Markdown),
});
export type AssigneeBody = Static<typeof AssigneeBody>;

export const CommentBody = Type.Object({
  body: Type.String({ minLength: 1, description: 'Markdown; `@username` notifies that person' }),
  internal: Type.Optional(Type.Boolean({ description: 'a helpdesk internal note, never shown to customers' })),
});
export type CommentBody = Static<typeof CommentBody>;

export const WorklogBody = Type.Object({
  time_spent: Type.Optional(Type.String({ description: 'like `1h 30m`, `45m`, `2d`, `1w` (a day is 8 hours, a week 5 days)' })),
  time_spent_seconds: Type.Optional(Type.Integer({ maximum: INT32_MAX, description: 'instead of time_spent' })),
  started_at: Type.Optional(Type.String({ format: 'date-time', description: 'ISO 8601; now when left out' })),
  body: Type.Optional(Markdown),
});
export type WorklogBody = Static<typeof WorklogBody>;

export const KeyParams = Type.Object({ key: TicketKey });

/** Whether the member watches a ticket: the answer of the pages' Watch and Stop watching. */
export const WatchState = Type.Object({ key: TicketKey, watching: Type.Boolean() });
export type WatchState = Static<typeof WatchState>;
