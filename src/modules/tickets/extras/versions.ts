import type { Context } from '../../../core/context.ts';
import { ApiError } from '../../../core/errors.ts';
import { resolveName } from '../../../core/names.ts';
import type { HistoryChange } from '../../../storage/schema.ts';
import { closeTicketChange } from '../closing.ts';
import { loadVisibleTicket, presentTicketById, presentTicketRow } from '../load.ts';
import { mayDo, requireTicketAction } from '../policy.ts';
import { cachedProjectConfig, type ProjectConfig } from '../project-config.ts';
import { setVersions, ticketRows } from '../repo.ts';
import type { Ticket } from '../schemas.ts';
import { projectOf } from '../update.ts';
import type { VersionsBody } from './schemas.ts';

/**
 * A ticket's fix and affected versions, set in the browser: neither POST /tickets nor PATCH
 * /tickets/{key} takes them (spec 4.2), so without this only the workspace file could. It changes
 * the ticket as an edit does (ticket:edit, spec 5.6), each list sent replacing that list, and is
 * closed as PATCH closes: one history entry with the lists that changed, the watchers told.
 */

type Kind = 'fix' | 'affected';
const LISTS = [
  { field: 'fix_versions', kind: 'fix' },
  { field: 'affected_versions', kind: 'affected' },
] as const satisfies readonly { field: keyof VersionsBody; kind: Kind }[];

/**
 * The versions a list may name: those not archived, and those it already holds (keeping a
 * released version, archived since, is no new choice of it).
 */
function choosableVersions(config: ProjectConfig, held: readonly string[]) {
  return config.versions.filter((v) => !v.archived || held.includes(v.name));
}

/** The versions named, in the project's order, each once, among the choosable ones. */
function resolveVersions(config: ProjectConfig, given: readonly string[], held: readonly string[], pointer: string) {
  const choosable = choosableVersions(config, held);
  const found = new Set(
    given.map((name, i) => resolveName(choosable, name, { pointer: `${pointer}/${i}`, what: 'version', names: (v) => [v.name] }).id),
  );
  return config.versions.filter((v) => found.has(v.id));
}

/** What a form that sets a ticket's versions offers: the versions it may name, and whether the member may set them. */
export interface VersionChoices {
  may_edit: boolean;
  fix_versions: string[];
  affected_versions: string[];
}

/**
 * The choosable versions of each list (resolveVersions' rule) for a ticket that holds `held` (as
 * the reader was shown it), and whether the member may edit the ticket.
 */
export async function ticketVersionChoices(
  ctx: Context,
  key: string,
  held: Pick<Ticket, 'fix_versions' | 'affected_versions'>,
): Promise<VersionChoices> {
  const ticket = await loadVisibleTicket(ctx, key);
  const [config, mayEdit] = await Promise.all([cachedProjectConfig(ctx, projectOf(ticket)), mayDo(ctx, 'edit', ticket)]);
  const choosable = (held: readonly string[]) => choosableVersions(config, held).map((v) => v.name);
  return { may_edit: mayEdit, fix_versions: choosable(held.fix_versions), affected_versions: choosable(held.affected_versions) };
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export async function setTicketVersions(ctx: Context, key: string, input: VersionsBody): Promise<Ticket> {
  const ticket = await loadVisibleTicket(ctx, key, true);
  await requireTicketAction(ctx, 'edit', ticket);
  const config = await cachedProjectConfig(ctx, projectOf(ticket));
  const [before] = await ticketRows(ctx.db, [ticket.id]);
  if (!before) throw new ApiError('not_found', `Ticket ${ticket.key} not found`);

  // every name is checked before anything is written
  const wanted = LISTS.flatMap(({ field, kind }) => {
    const given = input[field];
    return given === undefined ? [] : [{ field, kind, versions: resolveVersions(config, given, before[field], `/${field}`) }];
  });
  const changes: HistoryChange[] = [];
  for (const { field, kind, versions } of wanted) {
    const names = versions.map((v) => v.name);
    if (sameList(names, before[field])) continue;
    await setVersions(
      ctx.db,
      ticket.id,
      kind,
      versions.map((v) => v.id),
    );
    changes.push({ field, from: before[field], to: names });
  }
  if (!changes.length) return presentTicketById(ctx, ticket.id);
  const row = await closeTicketChange(ctx, ticket, {
    words: { text: 'kept' },
    history: [{ kind: 'updated', changes }],
    announcement: { kind: 'updated', payload: { changes: changes.map((c) => c.field) }, markdown: null },
  });
  return presentTicketRow(ctx, row);
}
