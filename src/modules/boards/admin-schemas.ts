import { Type, type Static } from 'typebox';
import { Nullable, StringEnum } from '../../core/schema-kit.ts';
import { BoardKind } from './schemas.ts';

// Board administration (spec 1: done in the browser): what the board's settings page reads and sends.

export const Swimlanes = StringEnum(['none', 'assignee', 'parent', 'priority'], {
  description: "the rows the board's page groups its cards into",
});

const ColumnSettings = Type.Object({
  name: Type.Optional(Nullable(Type.String({ maxLength: 255, description: 'shown above the column; may be left out' }))),
  statuses: Type.Array(Type.String({ minLength: 1 }), { description: 'a ticket is in the column holding its status' }),
  min: Type.Optional(Nullable(Type.Integer({ minimum: 0, description: 'work-in-progress minimum: shown, not enforced' }))),
  max: Type.Optional(Nullable(Type.Integer({ minimum: 0, description: 'work-in-progress maximum: shown, not enforced' }))),
});

const QuickFilterSettings = Type.Object({
  name: Type.String({ maxLength: 255 }),
  assignee: Type.Optional(Nullable(StringEnum(['me', 'unassigned']))),
  label: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  type: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
});

const FilterSettings = Type.Object({
  types: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'only tickets of one of these types; none: every type' })),
  labels: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'only tickets with one of these labels; none: any' })),
});

export const BoardSettingsBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  kind: BoardKind,
  all_projects: Type.Optional(Type.Boolean({ description: 'draw from every project, present and future (administrators only)' })),
  projects: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'project keys, unless all_projects' })),
  columns: Type.Optional(
    Type.Array(ColumnSettings, {
      description: "left to right; left out when creating: one column per status category of the projects' workflows",
    }),
  ),
  swimlanes: Type.Optional(Swimlanes),
  filter: Type.Optional(Nullable(FilterSettings)),
  quick_filters: Type.Optional(Type.Array(QuickFilterSettings, { description: 'in the order the board page offers them' })),
});
export type BoardSettingsBody = Static<typeof BoardSettingsBody>;

export const BoardSettings = Type.Object({
  number: Type.Integer(),
  name: Type.String(),
  kind: BoardKind,
  all_projects: Type.Boolean(),
  projects: Type.Array(Type.String(), { description: 'every project the board draws from' }),
  swimlanes: Swimlanes,
  quick_filters: Type.Array(QuickFilterSettings),
  filter: Type.Object({ types: Type.Array(Type.String()), labels: Type.Array(Type.String()) }),
  columns: Type.Array(
    Type.Object({
      index: Type.Integer(),
      name: Nullable(Type.String()),
      statuses: Type.Array(Type.String()),
      min: Nullable(Type.Integer()),
      max: Nullable(Type.Integer()),
    }),
  ),
  statuses: Type.Array(Type.String(), { description: "the statuses of the workflows of the board's projects, in workflow order" }),
  unmapped_statuses: Type.Array(Type.String(), { description: 'those of `statuses` no column shows' }),
});
export type BoardSettings = Static<typeof BoardSettings>;

export const DeletedBoard = Type.Object({ deleted: Type.Object({ number: Type.Integer(), name: Type.String() }) });
export type DeletedBoard = Static<typeof DeletedBoard>;
