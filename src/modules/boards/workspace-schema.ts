import { Type, type Static } from 'typebox';
import { Nullable, StringEnum } from '../../core/schema-kit.ts';
import { Name, Names, PersonRef, Strict } from '../../workspace/schema.ts';

// Boards (spec 2.5): creating boards and columns is not in the API, so the file declares them.
const BoardColumnEntry = Type.Object(
  {
    name: Type.Optional(Nullable(Name('shown above the column; may be left out'))),
    statuses: Names('status names; a ticket is in the column holding its status'),
    min: Type.Optional(Nullable(Type.Integer({ minimum: 0, description: 'work-in-progress minimum: shown, not enforced' }))),
    max: Type.Optional(Nullable(Type.Integer({ minimum: 0, description: 'work-in-progress maximum: shown, not enforced' }))),
  },
  Strict,
);

const SprintDate = Type.String({ minLength: 1, description: 'YYYY-MM-DD (midnight UTC) or an ISO 8601 time' });

const SprintEntry = Type.Object(
  {
    name: Name('unique on its board'),
    goal: Type.Optional(Nullable(Type.String())),
    state: Type.Optional(StringEnum(['future', 'active', 'closed'], { description: 'future when left out; one active sprint per board' })),
    start_date: Type.Optional(SprintDate),
    end_date: Type.Optional(SprintDate),
    tickets: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'ticket keys put in the sprint when it is created' })),
  },
  Strict,
);

export const BoardEntry = Type.Object(
  {
    number: Type.Integer({ minimum: 1, description: 'names the board; never changes once applied' }),
    name: Name(),
    kind: StringEnum(['scrum', 'kanban']),
    owner: Type.Optional(Nullable(PersonRef)),
    projects: Type.Union([Type.Literal('all'), Type.Array(Type.String(), { minItems: 1 })], {
      description: 'project keys the board draws from, or `all` for every project',
    }),
    columns: Type.Array(BoardColumnEntry, { minItems: 1, description: 'left to right' }),
    swimlanes: Type.Optional(
      StringEnum(['none', 'assignee', 'parent', 'priority'], {
        description: "the rows the board's page groups cards into; left out: as it is (`none` for a new board)",
      }),
    ),
    filter: Type.Optional(
      Nullable(
        Type.Object(
          {
            types: Type.Optional(Names('only tickets of one of these types')),
            labels: Type.Optional(Names('only tickets with one of these labels')),
          },
          {
            ...Strict,
            description: 'with its projects, chooses the board’s tickets; null: every ticket of its projects; left out: as it is',
          },
        ),
      ),
    ),
    quick_filters: Type.Optional(
      Type.Array(
        Type.Object(
          {
            name: Name('unique on its board'),
            assignee: Type.Optional(Nullable(StringEnum(['me', 'unassigned'], { description: 'the member looking, or nobody' }))),
            label: Type.Optional(Nullable(Type.String({ description: 'a label the card carries' }))),
            type: Type.Optional(Nullable(Type.String({ description: "the card's ticket type" }))),
          },
          Strict,
        ),
        { description: "what the board's page offers to narrow its cards, each matching every criterion given; left out: as they are" },
      ),
    ),
    done_retention_days: Type.Optional(
      Nullable(Type.Integer({ minimum: 0, description: 'done tickets done for longer leave the board view; null (default) keeps them' })),
    ),
    sprints: Type.Optional(
      Type.Array(SprintEntry, {
        description: 'scrum boards only: each is created when the board has no sprint of that name; the API runs them afterwards',
      }),
    ),
  },
  Strict,
);

export type BoardEntry = Static<typeof BoardEntry>;

export const BoardEntries = Type.Array(BoardEntry, { description: 'upserted by number; boards left out stay as they are' });
