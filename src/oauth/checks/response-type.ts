import { InvalidRequest, UnsupportedResponseType } from '../errors.ts';

/** Only the code flow exists: no implicit or hybrid responses (RFC 9700 §2.1.2). */
export function checkResponseType(responseType: string | undefined): void {
  if (responseType === undefined) throw new InvalidRequest('response_type is required and must be code');
  if (responseType !== 'code') throw new UnsupportedResponseType('response_type must be code');
}
