import type { Kysely } from 'kysely';
import type { DB } from '../storage/schema.ts';
import { deepFreeze } from './deep-freeze.ts';
import type { WorkspaceSettings } from './settings.ts';

/** What a cached read needs from the request: its database (or transaction), the settings read with its token, and the app's store. */
export interface StructureReader {
  db: Kysely<DB>;
  settings: Pick<WorkspaceSettings, 'configVersion'>;
  structure: StructureStore;
}

/** One kind of structure kept in a store (workflows, projects…); declared once by the module that reads it. */
export class StructureKind<V> {
  declare readonly value: V;
  readonly name: string;
  constructor(name: string) {
    this.name = name;
  }
}

interface Scope {
  version: number;
  entries: Map<string, Promise<unknown>>;
}

/**
 * Workspace structure (workflows, projects and their ticket types, priorities, resolutions,
 * components, versions; members' names) kept between requests by one app (one database), keyed by
 * `workspace_settings.config_version`, which every writer of structure bumps in the transaction
 * that changes it (workspace file apply, module switches, CLI member changes). Each request reads
 * the version with its token (ctx.settings), so a change made by any process on the same database
 * empties this store at the next request here. See ADR 0032.
 */
export class StructureStore {
  readonly #scopes = new Map<StructureKind<unknown>, Scope>();

  /**
   * The value of `kind` under `key` at the reader's version, loaded once per version. A request
   * that read an older version than one already seen (it began before a change committed) loads
   * without caching, so nothing read before a change is ever kept under the version that follows it.
   */
  get<V>(reader: Pick<StructureReader, 'settings'>, kind: StructureKind<V>, key: string, load: () => Promise<V>): Promise<V> {
    const version = reader.settings.configVersion;
    let scope = this.#scopes.get(kind);
    if (!scope) {
      scope = { version, entries: new Map() };
      this.#scopes.set(kind, scope);
    }
    if (version < scope.version) return load();
    if (version > scope.version) {
      scope.entries.clear();
      scope.version = version;
    }
    const shared = scope.entries.get(key) as Promise<V> | undefined;
    // Another request's read failed (its transaction was aborted, a connection was lost): read again.
    if (shared) return shared.catch(() => load());
    const found = load().then(deepFreeze);
    const entries = scope.entries;
    entries.set(key, found);
    // a failed read is not kept: the next request tries again
    found.catch(() => {
      if (entries.get(key) === found) entries.delete(key);
    });
    return found;
  }
}
