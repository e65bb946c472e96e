/** Every permission a role can grant (spec 5.6 and ARCHITECTURE §5). */
export const PERMISSIONS = [
  'project:view',
  'project:admin',
  'ticket:create',
  'ticket:edit',
  'ticket:edit_own',
  'ticket:assign',
  'ticket:transition',
  'ticket:comment',
  'time:log',
  'time:view_all',
  'time:billing',
  'helpdesk:forms',
  'helpdesk:publish',
  'knowledge:read',
  'knowledge:edit',
  'knowledge:manage',
  'crm:view',
  'crm:edit',
  'crm:manage',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

/** What a read-only token keeps (spec 5.6): seeing, and nothing else. */
export const READ_ONLY_PERMISSIONS: ReadonlySet<Permission> = new Set([
  'project:view',
  'time:view_all',
  'time:billing',
  'knowledge:read',
  'crm:view',
]);

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}
