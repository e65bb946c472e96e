import { ApiError } from '../../core/errors.ts';
import { normalizeKey, normalizeLabel, normalizeName, resolveName } from '../../core/names.ts';
import type { Context } from '../../core/context.ts';
import type { ProjectConfig } from './project-config.ts';
import { findTicketState } from './repo.ts';
import { isVisible, ticketScope } from './visibility.ts';

// Names of a project's vocabulary resolved through the one resolver (spec 2.1).

export function resolveType(config: ProjectConfig, given: string, pointer = '/type') {
  return resolveName(config.types, given, { pointer, what: 'ticket type', names: (t) => [t.name] });
}

export function resolvePriority(config: ProjectConfig, given: string, pointer = '/priority') {
  return resolveName(config.priorities, given, { pointer, what: 'priority', names: (p) => [p.name] });
}

/** The workspace default priority where the project has it, else none. */
export function defaultPriority(ctx: Context, config: ProjectConfig) {
  const wanted = ctx.settings.defaultPriority;
  return wanted === null ? null : (config.priorities.find((p) => normalizeName(p.name) === normalizeName(wanted)) ?? null);
}

export function resolveResolution(config: ProjectConfig, given: string, pointer = '/resolution') {
  return resolveName(config.resolutions, given, { pointer, what: 'resolution', names: (r) => [r.name] });
}

export function resolveComponents(config: ProjectConfig, given: readonly string[], pointer = '/components') {
  const active = config.components.filter((c) => !c.archived);
  const found = given.map((name, i) =>
    resolveName(active, name, { pointer: `${pointer}/${i}`, what: 'component', names: (c) => [c.name] }),
  );
  return [...new Map(found.map((c) => [c.id, c])).values()];
}

/** Labels as stored: lowercased, spaces as hyphens, each once. */
export function labelNames(given: readonly string[]): string[] {
  return [...new Set(given.map(normalizeLabel).filter((l) => l !== ''))];
}

/** A parent must be a ticket of the same project that the member can see (spec 4.2); any other is 422 `parent_not_found`. */
export async function resolveParent(ctx: Context, config: ProjectConfig, given: string, pointer = '/parent') {
  const parent = await findTicketState(ctx.db, given, await ticketScope(ctx));
  if (!parent || parent.project_id !== config.id || !isVisible(parent)) {
    throw new ApiError('parent_not_found', `${pointer}: no ticket ${normalizeKey(given)} in project ${config.key}`);
  }
  return parent;
}
