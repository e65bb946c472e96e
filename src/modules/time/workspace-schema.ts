import { Type, type Static } from 'typebox';
import { fileEntryFrom } from '../../workspace/schema.ts';
import { ActivityBody } from './schemas.ts';

const Strict = { additionalProperties: false } as const;
const Day = Type.String({ format: 'date', description: 'YYYY-MM-DD' });
const Decimal = Type.Union([Type.Number({ minimum: 0 }), Type.String({ pattern: '^\\d{1,10}(\\.\\d{1,2})?$' })], {
  description: 'a decimal, e.g. 95 or "95.50"',
});

export const OrganizationEntry = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    domains: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { description: 'replaces the stored domains' })),
  },
  Strict,
);

export const PhaseEntry = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255, description: 'unique; upserted by name' }),
    start_date: Day,
    end_date: Day,
    contract: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'a contract by name, created when new' })),
    customer: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'an organization of this file or stored, by name' })),
    project: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'project key' })),
    rate: Type.Optional(Decimal),
    currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217, e.g. EUR' })),
    max_days_available: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000 })),
    hours_per_day: Type.Optional(Decimal),
    closed: Type.Optional(Type.Boolean({ description: 'billed: its activities are locked' })),
  },
  Strict,
);

/** A seed activity: the API's create body, plus whose it is. Added once: one of that member's activities with the same start is left as it is. */
export const ActivityEntry = fileEntryFrom(ActivityBody, {
  member: Type.String({ minLength: 1, description: 'email, username or name of a member of this file' }),
});
export type ActivityEntry = Static<typeof ActivityBody> & { member: string };

export const TimeSection = Type.Object(
  {
    organizations: Type.Optional(
      Type.Array(OrganizationEntry, { description: 'customers, upserted by name; organizations the file leaves out stay' }),
    ),
    phases: Type.Optional(Type.Array(PhaseEntry, { description: 'billing periods, upserted by name' })),
    activities: Type.Optional(
      Type.Array(ActivityEntry, { description: 'seed activities (each needs start and end or duration, with an offset or a timezone)' }),
    ),
  },
  Strict,
);
export type PhaseEntry = Static<typeof PhaseEntry>;
/** The section's type from its parts' schemas (a seed activity's entry is built, so typed from the API's body). */
export interface TimeSectionValue {
  organizations?: Static<typeof OrganizationEntry>[];
  phases?: PhaseEntry[];
  activities?: ActivityEntry[];
}
