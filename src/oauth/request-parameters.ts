import type { RawParameters } from './checks/single-parameters.ts';
import { InvalidRequest } from './errors.ts';

/** The body's parameters: form-encoded or JSON (spec 5.2), never the query string (OAuth 2.1). */
export function bodyParameters(body: unknown, query: unknown): RawParameters {
  if (query && typeof query === 'object' && Object.keys(query).length > 0) {
    throw new InvalidRequest('Parameters belong in the request body, not the query string');
  }
  if (body === undefined || body === null || body === '') return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new InvalidRequest('The body must be form-encoded or a JSON object');
  return body as RawParameters;
}
