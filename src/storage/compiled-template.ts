import type { CompiledQuery, Kysely, RawBuilder } from 'kysely';
import type { DB } from './schema.ts';

/**
 * A fixed-shape statement that Kysely builds and compiles once per database handle; each call only
 * binds its values. Building and compiling the bearer lookup took about 27 µs, on every request
 * (ADR 0036). `build` must use its arguments only as values (`${arg}`), never to choose the
 * statement's shape or to compute another value: each argument must land in a parameter, as it
 * is, which is checked. One may land in several; each call binds every one of them, once per
 * place, unless every place casts it alike (mergedPlaces).
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
      template = mergedPlaces(query, slotAt);
      compiled.set(db, template);
    }
    const { query, slotAt } = template;
    return { ...query, parameters: query.parameters.map((value, i) => (slotAt[i]! >= 0 ? args[slotAt[i]!] : value)) };
  };
}

// a placeholder and the cast that follows it, if any
const PLACEHOLDER = /\$(\d+)(?!\d)(::\w+(?:\[\])?)?/g;

/**
 * The template with each argument that lands in several places under one cast (`$3::uuid[]`
 * three times) bound once, its places all naming the first. PostgreSQL reads every parameter's
 * text at each bind: the ticket detail named the member's two scope lists three times each, and
 * reading them again was a fifth of its bind (ADR 0036). A place without a cast, or with another
 * one, stays a parameter of its own: there PostgreSQL infers the parameter's type from where it
 * stands, which one parameter for all of them could change. Left as compiled unless its text
 * holds exactly Kysely's placeholders, `$1` to `$n` in order.
 */
function mergedPlaces<R>(query: CompiledQuery<R>, slotAt: number[]): { query: CompiledQuery<R>; slotAt: number[] } {
  const places = [...query.sql.matchAll(PLACEHOLDER)];
  if (places.length !== slotAt.length || places.some((place, i) => Number(place[1]) !== i + 1)) return { query, slotAt };
  const casts = places.map((place) => place[2] ?? null);
  const firstOf = slotAt.map((slot, i) => {
    if (slot < 0 || casts[i] === null) return i;
    const same = slotAt.flatMap((other, j) => (other === slot ? [j] : []));
    return same.every((j) => casts[j] === casts[i]) ? same[0]! : i;
  });
  const kept = firstOf.flatMap((first, i) => (first === i ? [i] : []));
  if (kept.length === slotAt.length) return { query, slotAt };
  const number = new Map(kept.map((i, n) => [i, n + 1]));
  const text = query.sql.replace(
    PLACEHOLDER,
    (_, place: string, cast?: string) => `$${number.get(firstOf[Number(place) - 1]!)!}${cast ?? ''}`,
  );
  return {
    query: { ...query, sql: text, parameters: kept.map((i) => query.parameters[i]) },
    slotAt: kept.map((i) => slotAt[i]!),
  };
}
