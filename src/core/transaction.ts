import type { Context } from './context.ts';

/**
 * `work` in one transaction: the request's own when it runs in one, else a new one. For an
 * operation that runs without one (its `oneStatement`) but must, this time, write more than one
 * statement: a create that first adds labels its project lacks.
 */
export function inTransaction<T>(ctx: Context, work: (ctx: Context) => Promise<T>): Promise<T> {
  if (ctx.db.isTransaction) return work(ctx);
  return ctx.db.transaction().execute((trx) => work({ ...ctx, db: trx, ability: ctx.ability.on(trx) }));
}
