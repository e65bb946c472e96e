import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { ApiError } from './errors.ts';
import { hygieneError, nestingError } from './input-hygiene.ts';
import { isDateTimeInRange, isDay } from './moments.ts';
import type { Operation } from './operation.ts';

export type ValidationMode = 'strict' | 'coerce';

// ajv-formats ships CommonJS whose default export lands one level down under ESM.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats: AddFormats =
  (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({ coerceTypes: coerce, useDefaults: true, allErrors: false, strict: false });
  addFormats(ajv);
  // dates and times in the years 0001–9999 (in UTC) only: what every column holds (core/moments.ts)
  ajv.addFormat('date', { type: 'string', validate: isDay });
  ajv.addFormat('date-time', { type: 'string', validate: isDateTimeInRange });
  return ajv;
}

const FORMAT_REASONS: Record<string, string> = {
  date: 'must be a date, YYYY-MM-DD, in the years 0001–9999',
  'date-time': 'must be ISO 8601 with an offset (2026-03-02T14:30:00+01:00), in the years 0001–9999 in UTC',
};

// Bodies are strict (`{"summary": 5}` is 422, not "5"); path and query strings are coerced.
const engines: Record<ValidationMode, Ajv> = { strict: makeAjv(false), coerce: makeAjv(true) };

/** A validator: a bound on nesting, the schema's rules, then what no column can hold (input-hygiene.ts). */
export interface Validator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/**
 * The schema's rules, then what no column can hold (input-hygiene.ts). Ajv compiles the schema at
 * its first request, not at start-up: most processes receive a few of the operations, and every
 * compiled schema holds generated code.
 */
function lazyValidator(schema: object, mode: ValidationMode): Validator {
  let check: ValidateFunction | null = null;
  const validate: Validator = (data) => {
    check ??= engines[mode].compile(schema);
    // before anything that recurses into the input: the schema's checks and the pass below
    const tooDeep = nestingError(data);
    if (tooDeep) {
      validate.errors = [tooDeep];
      return false;
    }
    if (!check(data)) {
      validate.errors = check.errors;
      return false;
    }
    // after the schema, so that coerced query and path values are judged as the handler sees them
    const problem = hygieneError(data);
    validate.errors = problem ? [problem] : null;
    return problem === null;
  };
  return validate;
}

const compiled: Record<ValidationMode, WeakMap<object, Validator>> = {
  strict: new WeakMap(),
  coerce: new WeakMap(),
};

/** One validator per schema and mode, shared by the REST routes and the MCP tools. */
export function compileValidator(schema: object, mode: ValidationMode): Validator {
  let validate = compiled[mode].get(schema);
  if (!validate) {
    validate = lazyValidator(schema, mode);
    compiled[mode].set(schema, validate);
  }
  return validate;
}

function pointer(error: ErrorObject): string {
  const missing = error.keyword === 'required' ? `/${(error.params as { missingProperty: string }).missingProperty}` : '';
  return `${error.instancePath}${missing}` || '/';
}

function reason(error: ErrorObject): string {
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'enum':
      return `must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'anyOf':
      return 'does not match any allowed form';
    case 'format':
      return FORMAT_REASONS[(error.params as { format: string }).format] ?? error.message ?? 'is not valid';
    default:
      return error.message ?? 'is not valid';
  }
}

/** The spec's 422 message, `<json pointer>: <reason>`, for the first error Ajv found. */
export function describeValidationError(errors: ErrorObject[] | null | undefined): string {
  const error = errors?.[0];
  if (!error) return '/: is not valid';
  return `${pointer(error)}: ${reason(error)}`;
}

export function validateOrThrow(schema: object, mode: ValidationMode, data: unknown): void {
  const validate = compileValidator(schema, mode);
  if (!validate(data)) throw new ApiError('invalid', describeValidationError(validate.errors));
}

/** An operation's input as the doors receive it: path, query and body apart. */
export interface InputParts {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
}

export type InputPart = keyof InputParts;

/**
 * An operation's input checked by the validators REST compiles for its routes (the same ones, by
 * schema), in Fastify's order (path, body, query), and merged as the handler takes it. The MCP
 * tools and the pages call this; a 422 names the first problem's JSON pointer, a path parameter's
 * under the name the caller knows it by (`renameParam`).
 */
export function validateInput(
  op: Operation,
  parts: InputParts,
  renameParam: (name: string) => string | undefined = () => undefined,
): Record<string, unknown> {
  const checks: [InputPart, object | null, ValidationMode][] = [
    ['params', op.params, 'coerce'],
    ['body', op.body, 'strict'],
    ['query', op.query, 'coerce'],
  ];
  for (const [part, schema, mode] of checks) {
    if (!schema) continue;
    const check = compileValidator(schema, mode);
    if (check(parts[part])) continue;
    let message = describeValidationError(check.errors);
    if (part === 'params') {
      const [pointer = '', ...rest] = message.split(':');
      const renamed = renameParam(pointer.replace(/^\//, ''));
      if (renamed) message = [`/${renamed}`, ...rest].join(':');
    }
    throw new ApiError('invalid', message);
  }
  return { ...parts.body, ...parts.query, ...parts.params };
}
