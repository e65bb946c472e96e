import { Type, type Static } from 'typebox';
import { DateOnly, Nullable, Offset, shared, StringEnum, Timestamp, Uuid } from '../../core/schema-kit.ts';
import { Person, Reference, RichText } from '../../core/shapes.ts';

const TimeZone = Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. Europe/Berlin' });
const ProjectRef = Type.Object({ key: Type.String(), name: Type.String() });
const TicketRef = Type.Object({ key: Type.String(), summary: Type.String() });

export const Activity = shared(
  'Activity',
  Type.Object({
    id: Uuid,
    description: Nullable(Type.String()),
    started_at: Timestamp,
    ended_at: Nullable(Timestamp),
    running: Type.Boolean(),
    time_spent_seconds: Nullable(Type.Integer({ description: 'null while running' })),
    time_spent: Nullable(Type.String({ description: 'like `1h 30m` (a day is 8 hours); null while running' })),
    tags: Type.Array(Type.String()),
    project: Nullable(ProjectRef),
    customer: Nullable(Reference),
    ticket: Nullable(TicketRef),
    note: Nullable(RichText),
    billable: Type.Boolean(),
    locked: Type.Boolean({ description: 'in a closed billing phase: no longer changed or deleted' }),
    author: Nullable(Person),
    created_at: Timestamp,
    edited_at: Nullable(Timestamp),
  }),
);
export type Activity = Static<typeof Activity>;

const HistoryChange = Type.Object({ field: Type.String(), from: Type.Unknown(), to: Type.Unknown() });

export const ActivityDetail = shared(
  'ActivityDetail',
  Type.Object({
    ...Activity.properties,
    history: Type.Array(
      Type.Object({
        kind: Type.String({ description: '`created`, `updated`, `stopped`, `stopped_by_new`, `deleted`' }),
        at: Timestamp,
        actor: Nullable(Person),
        via: Nullable(Type.String({ description: 'the agent that made the change' })),
        changes: Type.Array(HistoryChange),
      }),
      { description: 'oldest first' },
    ),
  }),
);
export type ActivityDetail = Static<typeof ActivityDetail>;

export const ActivityList = shared(
  'ActivityList',
  Type.Object({
    activities: Type.Array(Activity, { description: 'newest first' }),
    limit: Type.Integer(),
    offset: Type.Integer(),
    timezone: Type.String({ description: 'the zone `from` and `to` were counted in' }),
  }),
);
export type ActivityList = Static<typeof ActivityList>;

export const DeletedActivity = shared('DeletedActivity', Type.Object({ id: Uuid, deleted: Type.Boolean() }));
export type DeletedActivity = Static<typeof DeletedActivity>;

export const OrganizationList = shared(
  'OrganizationList',
  Type.Object({
    organizations: Type.Array(Type.Object({ id: Uuid, name: Type.String(), domains: Type.Array(Type.String()) }), {
      description: 'by name',
    }),
  }),
);
export type OrganizationList = Static<typeof OrganizationList>;

export const Phase = shared(
  'Phase',
  Type.Object({
    id: Uuid,
    name: Type.String(),
    start_date: DateOnly,
    end_date: DateOnly,
    contract: Nullable(Reference),
    customer: Nullable(Type.String()),
    project: Nullable(Type.String({ description: 'project key' })),
    rate: Nullable(Type.String({ description: 'hourly, a decimal; null unless you may see billing (time:billing)' })),
    currency: Nullable(Type.String({ description: 'null unless you may see billing' })),
    max_days_available: Nullable(Type.Integer()),
    hours_per_day: Type.String({ description: 'a decimal' }),
  }),
);
export type Phase = Static<typeof Phase>;

export const PhaseList = shared('PhaseList', Type.Object({ phases: Type.Array(Phase, { description: 'newest first' }) }));
export type PhaseList = Static<typeof PhaseList>;

const WHEN = 'ISO 8601 with an offset, or a local time (`2026-03-29T09:00`) or day (its midnight) read in `timezone`';

export const ActivityBody = Type.Object({
  description: Type.Optional(Nullable(Type.String({ maxLength: 500, description: 'what was done' }))),
  start: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: `when it started; now when left out. ${WHEN}` })),
  end: Type.Optional(
    Nullable(Type.String({ minLength: 1, maxLength: 64, description: `when it ended; ${WHEN}; \`HH:MM\` is on the start's day` })),
  ),
  duration: Type.Optional(
    Nullable(Type.String({ minLength: 1, maxLength: 64, description: 'instead of end: `1h 30m`, `45m`, `2d` (a day is 8 hours)' })),
  ),
  timezone: Type.Optional(TimeZone),
  tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50, description: 'replaces the tags' })),
  project: Type.Optional(Nullable(Type.String({ maxLength: 100, description: 'project key; null or "" clears' }))),
  customer: Type.Optional(
    Nullable(Type.String({ maxLength: 255, description: 'an organization\'s name (see list_organizations); null or "" clears' })),
  ),
  ticket: Type.Optional(
    Nullable(
      Type.String({ maxLength: 100, description: 'ticket key, a ticket you can see; sets project to its project; null or "" clears' }),
    ),
  ),
  note: Type.Optional(Nullable(Type.String({ maxLength: 32768, description: 'Markdown' }))),
  billable: Type.Optional(Type.Boolean({ description: 'true when left out on create' })),
});
export type ActivityBody = Static<typeof ActivityBody>;

export const ActivityParams = Type.Object({ id: Uuid });

export const StopBody = Type.Object({
  end: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: `${WHEN}; \`HH:MM\` is on the start's day; now when left out` }),
  ),
  timezone: Type.Optional(TimeZone),
});

const Filters = {
  from: Type.Optional(DateOnly),
  to: Type.Optional(DateOnly),
  timezone: Type.Optional(TimeZone),
  project: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'project key' })),
  customer: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'organization name' })),
  ticket: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'ticket key' })),
  member: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description: "`me`, or a member's name or id; another member's activities need time:view_all in their project",
    }),
  ),
};

export const ListActivitiesQuery = Type.Object({
  ...Filters,
  tag: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  running: Type.Optional(Type.Boolean()),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  offset: Type.Optional(Offset),
});

export const PhasesQuery = Type.Object({
  customer: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'organization name' })),
});

export const GROUP_BY = ['day', 'week', 'month', 'member', 'project', 'customer', 'ticket', 'tag', 'phase'] as const;
export type GroupBy = (typeof GROUP_BY)[number];

export const HoursQuery = Type.Object({
  ...Filters,
  phase: Type.Optional(
    Type.String({ minLength: 1, maxLength: 255, description: 'phase name or id: its dates, and its project or customer' }),
  ),
  group_by: Type.Optional(
    Type.String({
      maxLength: 100,
      description: `comma-separated, at most two of ${GROUP_BY.join(', ')}; weeks start on Monday (ISO), days in \`timezone\`; left out: one total`,
    }),
  ),
});

const Amount = Type.Object({ currency: Type.String(), amount: Type.String({ description: 'a decimal with two places' }) });

const Totals = {
  seconds: Type.Integer(),
  billable_seconds: Type.Integer(),
  activities: Type.Integer(),
  amounts: Nullable(
    Type.Array(Amount, {
      description: 'billable time at the rates of the phases it falls in, per currency; null unless you may see billing',
    }),
  ),
};

export const HoursReport = shared(
  'HoursReport',
  Type.Object({
    from: DateOnly,
    to: DateOnly,
    timezone: Type.String(),
    group_by: Type.Array(StringEnum(GROUP_BY)),
    total: Type.Object(Totals),
    groups: Type.Array(
      Type.Object({
        key: Type.Record(Type.String(), Nullable(Type.String()), {
          description:
            'one entry per group_by: the day (`2026-03-29`), week (`2026-W13`), month (`2026-03`), member, project key, customer, ticket key, tag or phase; null for none',
        }),
        ...Totals,
      }),
      { description: 'in key order' },
    ),
  }),
);
export type HoursReport = Static<typeof HoursReport>;
