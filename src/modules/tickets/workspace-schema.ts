import { Type, type Static } from 'typebox';
import { StringEnum } from '../../core/schema-kit.ts';
import { Name as FileName, PersonRef, Strict } from '../../workspace/schema.ts';

/**
 * `projects[].tickets` of the workspace file: seed tickets, applied by workspace-section.ts.
 * Created once, keyed by their number in the project; later applies leave them alone (tickets
 * are data). Seeds may set what the API itself never writes (status, resolution, estimates,
 * security level, links, restricted comments), so this is not the API's create body.
 */
const Name = FileName();
const SeedNumber = Type.Integer({ minimum: 1, description: 'the ticket number in the project (KEY-<number>)' });

export const TicketSeedComment = Type.Object(
  {
    author: PersonRef,
    body: Type.String({ minLength: 1 }),
    format: Type.Optional(StringEnum(['markdown', 'imported_wiki'])),
    visibility: Type.Optional(
      Type.Union([StringEnum(['public', 'internal']), Type.Object({ role: Name }, Strict), Type.Object({ group: Name }, Strict)], {
        description: '`public` (default), `internal`, or restricted to `{role: …}` or `{group: …}`',
      }),
    ),
  },
  Strict,
);

export const TicketSeedEntry = Type.Object(
  {
    number: SeedNumber,
    summary: Name,
    type: Type.Optional(Name),
    request_type: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'helpdesk projects: an active request type by key or name; the ticket gets its type when `type` is left out',
      }),
    ),
    status: Type.Optional(Name),
    priority: Type.Optional(Name),
    resolution: Type.Optional(Name),
    assignee: Type.Optional(Type.Union([PersonRef, Type.Null()])),
    reporter: Type.Optional(PersonRef),
    labels: Type.Optional(Type.Array(Name)),
    components: Type.Optional(Type.Array(Name)),
    fix_versions: Type.Optional(Type.Array(Name)),
    description: Type.Optional(Type.String()),
    description_format: Type.Optional(StringEnum(['markdown', 'imported_wiki'])),
    security_level: Type.Optional(Name),
    estimate: Type.Optional(Type.String({ description: 'original and remaining estimate, like `2d` or `3h 30m`' })),
    due_date: Type.Optional(Type.String({ format: 'date' })),
    fields: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'custom fields by key, as the API takes them' })),
    comments: Type.Optional(Type.Array(TicketSeedComment)),
    parent: Type.Optional(SeedNumber),
    links: Type.Optional(
      Type.Array(Type.Object({ relation: StringEnum(['blocks', 'relates to', 'duplicates', 'clones']), ticket: SeedNumber }, Strict)),
    ),
  },
  Strict,
);
export type TicketSeedEntry = Static<typeof TicketSeedEntry>;

export const TicketSeeds = Type.Array(TicketSeedEntry, {
  description: 'seed tickets, created once by number; later applies leave them alone',
});
