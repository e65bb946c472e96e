import { InvalidRequest } from '../errors.ts';

export type RawParameters = Record<string, unknown>;

/**
 * One value of a request parameter: undefined when absent or empty (OAuth 2.1: empty counts as
 * absent); a repeated parameter is refused (OAuth 2.1: parameters must not repeat).
 */
export function single(params: RawParameters, name: string, onRepeat: (name: string) => Error = repeated): string | undefined {
  const value = params[name];
  if (value === undefined || value === null || value === '') return undefined;
  if (Array.isArray(value)) throw onRepeat(name);
  if (typeof value !== 'string') throw new InvalidRequest(`${name} must be a string`);
  return value;
}

function repeated(name: string): Error {
  return new InvalidRequest(`${name} must not be repeated`);
}
