import { sql, type Kysely } from 'kysely';
import { recordVisibleSql } from '../../../core/visibility.ts';
import { visibilities } from '../../../modules/index.ts';
import { unreadCountSql } from '../../../notifications/inbox.ts';
import type { DB } from '../../../storage/schema.ts';

/** A record a stream would tell its member of: the changed ticket its page shows. */
export interface StreamRecord {
  entityType: string;
  entityId: string;
}

/** What a stream learns at a change: its member's unread count, and whether they may see the changed record now. */
export interface StreamCheck {
  unread: number;
  visible: boolean;
}

/** Asks for one stream's member, and the record its page would be told of (null: none). */
export type StreamChecker = (memberId: string, about: StreamRecord | null) => Promise<StreamCheck>;

type Waiting = { resolve(check: StreamCheck): void; reject(error: unknown): void };
type Ask = { memberId: string; record: StreamRecord | null; waiting: Waiting };

/**
 * What every open event stream asks at each change — its member's unread count (only what they
 * may see now, as the page shows it) and whether they may see the changed record now — read in
 * one query per round: the asks made while an event is being dispatched are gathered until the
 * next turn of the event loop (setImmediate runs after the dispatch's microtasks), so a change
 * seen by 1,000 open pages costs one query, not 1,000 (ADR 0022).
 */
export function batchedStreamChecks(db: Kysely<DB>): StreamChecker {
  let round: Ask[] | null = null;

  const read = async (asks: Ask[]) => {
    try {
      const json = JSON.stringify(
        asks.map(({ memberId, record }, i) => ({
          i,
          member_id: memberId,
          entity_type: record?.entityType,
          entity_id: record?.entityId,
        })),
      );
      const member = sql.ref('a.member_id');
      const { rows } = await sql<{ i: number; unread: string | number; visible: boolean | null }>`
        with a as (
          select * from jsonb_to_recordset(${json}::jsonb)
            as a(i int, member_id uuid, entity_type text, entity_id uuid)),
        counts as (
          select m.member_id, ${unreadCountSql(sql.ref('m.member_id'))} as unread
          from (select distinct member_id from a) m)
        select a.i, c.unread,
          case when a.entity_id is null then false
               else ${recordVisibleSql(visibilities, sql.ref('a.entity_type'), member, sql.ref('a.entity_id'))}
          end as visible
        from a join counts c on c.member_id = a.member_id
      `.execute(db);
      const answers = new Map(rows.map((row) => [row.i, { unread: Number(row.unread), visible: row.visible === true }]));
      asks.forEach((ask, i) => ask.waiting.resolve(answers.get(i) ?? { unread: 0, visible: false }));
    } catch (error) {
      for (const ask of asks) ask.waiting.reject(error);
    }
  };

  return (memberId, about) =>
    new Promise<StreamCheck>((resolve, reject) => {
      if (round === null) {
        const asks: Ask[] = [];
        round = asks;
        setImmediate(() => {
          round = null;
          void read(asks);
        });
      }
      round.push({ memberId, record: about, waiting: { resolve, reject } });
    });
}
