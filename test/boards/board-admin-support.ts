import fs from 'node:fs';
import { FIXTURES } from '../helpers/service.ts';

/** The boards fixture with a password for each persona, who can then log in to the pages. */
export function boardsWorkspaceWithPasswords(): string {
  let text = fs.readFileSync(new URL('boards-workspace.yaml', FIXTURES), 'utf8');
  for (const persona of ['ada', 'lee', 'pat', 'dan', 'vic', 'olga']) {
    const before = text;
    text = text.replace(new RegExp(`(email: ${persona}@example\\.com)([,} ])`), `$1, password: ${persona}-password$2`);
    if (text === before) throw new Error(`the boards fixture no longer lists ${persona} as expected`);
  }
  return text;
}
