import { sql } from 'kysely';
import type { Log } from '../core/context.ts';
import type { Database } from '../storage/database.ts';

/** A committed change, as the history trigger announces it (migration 0011), with a ticket's key and project. */
export interface ChangeEvent {
  entityType: string;
  entityId: string;
  kind: string;
  /** For a ticket: its key and project, read once per event for every listener. */
  ticket?: { key: string; projectId: string };
}

export const EVENTS_CHANNEL = 'atrium_events';

declare module 'fastify' {
  interface FastifyInstance {
    /** Committed changes as they happen, for the open pages' event streams. */
    liveEvents: LiveEvents;
  }
}

/**
 * Every committed change of the workspace, from every node on the same database (PostgreSQL
 * LISTEN/NOTIFY; PGlite's own in one process), fanned out to this node's listeners — the open
 * pages' event streams. Listening starts with the first listener and stops with the last. Who may
 * see what is the listeners' business: an event names a record, never its content.
 */
export class LiveEvents {
  private readonly listeners = new Set<(event: ChangeEvent) => void>();
  private stopListening: Promise<() => Promise<void>> | null = null;

  constructor(
    private readonly database: Database,
    private readonly log: Log,
  ) {}

  get size(): number {
    return this.listeners.size;
  }

  subscribe(listener: (event: ChangeEvent) => void): () => void {
    this.listeners.add(listener);
    this.stopListening ??= this.database.listen(EVENTS_CHANNEL, (payload) => void this.dispatch(payload));
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) void this.close();
    };
  }

  /** Resolves once this node hears events (a listener that must not miss the next change waits for it). */
  async ready(): Promise<void> {
    await this.stopListening;
  }

  async close(): Promise<void> {
    const stopping = this.stopListening;
    this.stopListening = null;
    if (stopping) await (await stopping)();
  }

  private async dispatch(payload: string): Promise<void> {
    if (this.listeners.size === 0) return;
    let event: ChangeEvent;
    try {
      const raw = JSON.parse(payload) as { entity_type: string; entity_id: string; kind: string };
      event = { entityType: raw.entity_type, entityId: raw.entity_id, kind: raw.kind };
      if (event.entityType === 'ticket') {
        const { rows } = await sql<{ key: string; project_id: string }>`select key, project_id from tickets where id = ${event.entityId}`.execute(this.database.db);
        if (!rows[0]) return;
        event.ticket = { key: rows[0].key, projectId: rows[0].project_id };
      }
    } catch (error) {
      this.log.warn({ err: error }, 'a change event could not be read');
      return;
    }
    for (const listener of [...this.listeners]) listener(event);
  }
}
