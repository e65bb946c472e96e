import type { CompiledQuery, Kysely, RawBuilder } from 'kysely';
import type { DB } from './schema.ts';

/**
 * A fixed-shape statement that Kysely builds and compiles once per database handle; each call only
 * binds its values. Building and compiling the bearer lookup took about 27 µs, on every request
 * (issue 15). `build` must use its arguments only as values (`${arg}`), never to choose the
 * statement's shape or to compute another value: each argument must land in a parameter, as it
 * is, which is checked. One may land in several; each call binds every one of them.
 */
export function compiledTemplate<R, A extends unknown[]>(arity: A['length'], build: (...args: A) => RawBuilder<R>) {
  const slots = Array.from({ length: arity }, (_, i) => `\u0000slot ${i}\u0000`);
  const compiled = new WeakMap<Kysely<DB>, { query: CompiledQuery<R>; slotAt: number[] }>();
  return (db: Kysely<DB>, ...args: A): CompiledQuery<R> => {
    let template = compiled.get(db);
    if (!template) {
      const query = build(...(slots as A)).compile(db);
      const slotAt = query.parameters.map((value) => slots.indexOf(value as string));
      for (let i = 0; i < arity; i++) {
        if (!slotAt.includes(i)) throw new Error(`compiledTemplate: argument ${i} is not a parameter`);
      }
      template = { query, slotAt };
      compiled.set(db, template);
    }
    const { query, slotAt } = template;
    return { ...query, parameters: query.parameters.map((value, i) => (slotAt[i]! >= 0 ? args[slotAt[i]!] : value)) };
  };
}
