const MAX_LENGTH = 64;

/** A username from an email's local part, else from the display name: `ada@x.org` → `ada`, `Dev One` → `dev.one`. */
export function usernameBase(email: string | null | undefined, name: string): string {
  const fromEmail = (email ?? '')
    .split('@')[0]!
    .toLowerCase()
    .replace(/[^a-z0-9._-]/g, '');
  if (fromEmail) return fromEmail.slice(0, MAX_LENGTH);
  const fromName = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim()
    .replace(/\s+/g, '.')
    .replace(/[^a-z0-9._-]/g, '');
  return (fromName || 'member').slice(0, MAX_LENGTH);
}

/** The base, or the base with the smallest number (2, 3, …) that nobody has taken. */
export function uniqueUsername(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) {
    const suffix = String(n);
    const candidate = base.slice(0, MAX_LENGTH - suffix.length) + suffix;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}
