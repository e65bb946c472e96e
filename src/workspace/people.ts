import { candidateList, normalizeName } from '../core/names.ts';
import { fail } from './path.ts';

/** A member as a workspace file names them: by email address, username or display name. */
export interface PersonRecord {
  id: string | null;
  name: string;
  email: string | null;
  username: string;
}

/** The members a file may name: those it declares and those already in the workspace. */
export class People {
  readonly all: readonly PersonRecord[];

  constructor(all: readonly PersonRecord[]) {
    this.all = all;
  }

  /** Email first, then username, then display name (which must then be unambiguous). */
  find(ref: string, path: string): PersonRecord {
    const wanted = normalizeName(ref);
    const byEmail = this.all.find((p) => p.email !== null && normalizeName(p.email) === wanted);
    if (byEmail) return byEmail;
    const byUsername = this.all.find((p) => normalizeName(p.username) === wanted);
    if (byUsername) return byUsername;
    const byName = this.all.filter((p) => normalizeName(p.name) === wanted);
    if (byName.length === 1) return byName[0]!;
    if (byName.length > 1) {
      fail(path, `"${ref.trim()}" names ${byName.length} members; name them by email address or username`);
    }
    return fail(
      path,
      `no member "${ref.trim()}"; members are ${candidateList(
        ref,
        this.all.map((p) => p.email ?? p.name),
      )}`,
    );
  }

  id(ref: string, path: string): string {
    const person = this.find(ref, path);
    if (person.id === null) throw new Error(`member ${person.name} has not been written yet`);
    return person.id;
  }
}
