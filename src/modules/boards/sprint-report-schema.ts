import { Type, type Static } from 'typebox';
import { Nullable } from '../../core/schema-kit.ts';
import { Sprint } from './schemas.ts';

const ReportTicket = Type.Object({ key: Type.String(), summary: Type.String(), status: Type.String({ description: 'its status now' }) });
export type ReportTicket = Static<typeof ReportTicket>;

export const SprintReport = Type.Object({
  board: Type.Integer(),
  sprint: Sprint,
  burndown: Type.Array(
    Type.Object({
      date: Type.String({ description: 'a day (UTC), YYYY-MM-DD' }),
      tickets: Nullable(Type.Integer({ description: "tickets in the sprint not done at the day's end; null for a day to come" })),
      remaining_seconds: Nullable(Type.Integer({ description: 'their remaining estimate, summed; null for a day to come' })),
    }),
    { description: "from the start's day to the planned end's (or the completion's, if later)" },
  ),
  committed: Type.Integer({ description: 'tickets in the sprint when it started' }),
  completed: Type.Array(ReportTicket, { description: 'in the sprint at its end, and done' }),
  not_completed: Type.Array(ReportTicket, {
    description: 'in the sprint at its end, not done (moved out by the completion of a closed sprint)',
  }),
  added: Type.Array(ReportTicket, { description: 'moved into the sprint after it started' }),
  removed: Type.Array(ReportTicket, { description: 'moved out of the sprint while it ran' }),
});
export type SprintReport = Static<typeof SprintReport>;
