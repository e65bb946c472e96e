import type { ErrorObject } from 'ajv';
import { compileValidator } from '../core/validation.ts';
import { fail, pointerToPath } from './path.ts';
import type { TObject } from 'typebox';
import type { WorkspaceFile } from './schema.ts';

function reason(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a field here';
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case 'anyOf':
      return 'is not any of the allowed forms';
    default:
      return error.message ?? 'is not valid';
  }
}

function where(error: ErrorObject): string {
  const params = error.params as Record<string, string>;
  const extra =
    error.keyword === 'required'
      ? `/${params.missingProperty}`
      : error.keyword === 'additionalProperties'
        ? `/${params.additionalProperty}`
        : '';
  return pointerToPath(`${error.instancePath}${extra}`) || '(the file)';
}

/**
 * Of Ajv's errors, the one deepest in the file: inside a union (a name or an object) it is the
 * branch that came closest, which is the mistake a person made.
 */
function mostSpecific(errors: readonly ErrorObject[]): ErrorObject {
  const depth = (e: ErrorObject) => where(e).split(/[.[]/).length;
  return [...errors].filter((e) => e.keyword !== 'anyOf').sort((a, b) => depth(b) - depth(a))[0] ?? errors[0]!;
}

/** The file's shape against its assembled declaration (schema.ts); the first mistake names its path. */
export function validateWorkspaceFile(schema: TObject, file: unknown): WorkspaceFile {
  const validate = compileValidator(schema, 'strict');
  if (!validate(file)) {
    const error = mostSpecific(validate.errors ?? []);
    fail(where(error), reason(error));
  }
  return file as WorkspaceFile;
}
