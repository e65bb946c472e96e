import { sql } from 'kysely';
import type { Context } from '../../core/context.ts';
import { checkZone, usableZone } from '../../core/moments.ts';

/**
 * The time zone a request's days and local times are read in: the one it gives (an IANA name,
 * checked), else — through MCP, whose time tools take the member's own zone (spec 4.8), and on
 * the member's own pages — the member's, else none. Times themselves are read by core/moments.ts.
 */
export async function requestZone(ctx: Context, given: string | undefined, pointer = '/timezone'): Promise<string | null> {
  if (given !== undefined) return checkZone(ctx.db, given, pointer);
  return ctx.door === 'mcp' || ctx.door === 'web' ? memberZone(ctx) : null;
}

/** The zone lists and reports count days in: the one given, else the member's own (the answer says which). */
export async function listZone(ctx: Context, given: string | undefined): Promise<string> {
  return (await requestZone(ctx, given)) ?? memberZone(ctx);
}

async function memberZone(ctx: Context): Promise<string> {
  const row = await ctx.db.selectFrom('members').select('timezone').where('id', '=', ctx.actor.memberId).executeTakeFirst();
  return usableZone(ctx.db, row?.timezone ?? null);
}

/** The local day (`YYYY-MM-DD`) an instant falls on in a zone. */
export async function localDay(ctx: Pick<Context, 'db'>, instant: string, zone: string): Promise<string> {
  const { rows } = await sql<{ day: string }>`select to_char((${instant}::timestamptz at time zone ${zone}), 'YYYY-MM-DD') as day`.execute(
    ctx.db,
  );
  return rows[0]!.day;
}
