import { sql } from 'kysely';
import type { Log } from '../core/context.ts';
import type { Database } from '../storage/database.ts';

/** A committed change, as the history trigger announces it (migration 0011), with a ticket's key and project. */
export interface ChangeEvent {
  entityType: string;
  entityId: string;
  kind: string;
  /** For a ticket: its key and project, read once per event for every listener. */
  ticket?: { key: string; projectId: string; projectKey: string };
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
 * see what is the listeners' business (web/pages/live/stream-checks.ts asks for each): an event names a
 * record, never its content.
 */
export class LiveEvents {
  private readonly listeners = new Map<(event: ChangeEvent) => void, () => void>();
  private stopListening: Promise<() => Promise<void>> | null = null;

  private readonly database: Database;
  private readonly log: Log;

  constructor(database: Database, log: Log) {
    this.database = database;
    this.log = log;
  }

  get size(): number {
    return this.listeners.size;
  }

  /** `end` is called when the node stops (drains or closes): an event stream ends its response then. */
  subscribe(listener: (event: ChangeEvent) => void, end: () => void = () => {}): () => void {
    this.listeners.set(listener, end);
    this.stopListening ??= this.startListening();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) void this.close();
    };
  }

  /**
   * Why this node does not hear committed changes, or null while it can: configured without a
   * connection to LISTEN on (storage/database.ts), or its last attempt failed (the next
   * subscriber tries again).
   */
  get problem(): string | null {
    if (this.database.listenProblem) return this.database.listenProblem;
    return this.failed ? 'the last attempt to LISTEN for changes failed; the next page that opens tries again' : null;
  }

  private failed = false;

  /** True when this node is configured without a connection to LISTEN on: no stream would ever hear a change. */
  get off(): boolean {
    return this.database.listenProblem !== null;
  }

  private startListening(): Promise<() => Promise<void>> {
    const started = this.database.listen(EVENTS_CHANNEL, (payload) => void this.dispatch(payload));
    started.then(
      () => {
        this.failed = false;
      },
      (error: unknown) => {
        this.failed = true;
        if (this.stopListening === started) this.stopListening = null;
        if (!this.database.listenProblem) this.log.warn({ err: error }, 'could not LISTEN for changes');
      },
    );
    return started;
  }

  /**
   * Resolves once this node hears events (a listener that must not miss the next change waits for
   * it); rejects when it cannot.
   */
  async ready(): Promise<void> {
    await this.stopListening;
  }

  /** Ends every stream (the node is shutting down; browsers reconnect to another node or later). */
  endStreams(): void {
    for (const end of [...this.listeners.values()]) end();
    this.listeners.clear();
  }

  async close(): Promise<void> {
    this.endStreams();
    const stopping = this.stopListening;
    this.stopListening = null;
    if (stopping) await (await stopping.catch(() => null))?.();
  }

  private async dispatch(payload: string): Promise<void> {
    if (this.listeners.size === 0) return;
    let event: ChangeEvent;
    try {
      const raw = JSON.parse(payload) as { entity_type: string; entity_id: string; kind: string };
      event = { entityType: raw.entity_type, entityId: raw.entity_id, kind: raw.kind };
      if (event.entityType === 'ticket') {
        const { rows } = await sql<{ key: string; project_id: string; project_key: string }>`
          select t.key, t.project_id, p.key as project_key from tickets t join projects p on p.id = t.project_id where t.id = ${event.entityId}
        `.execute(this.database.db);
        if (!rows[0]) return;
        event.ticket = { key: rows[0].key, projectId: rows[0].project_id, projectKey: rows[0].project_key };
      }
    } catch (error) {
      this.log.warn({ err: error }, 'a change event could not be read');
      return;
    }
    for (const listener of [...this.listeners.keys()]) listener(event);
  }
}
