/**
 * Ticket fields a transition's validator may require besides custom field keys (spec 2.4 names).
 * The tickets module checks a validator against exactly these.
 */
export const TICKET_FIELDS = [
  'summary',
  'description',
  'environment',
  'assignee',
  'priority',
  'resolution',
  'components',
  'fix_versions',
  'affected_versions',
  'labels',
  'due_date',
  'security_level',
  'parent',
  'original_estimate',
  'remaining_estimate',
] as const;

/** Priorities of a new project that states none, when the workspace section states none either. */
export const DEFAULT_PRIORITIES = ['Highest', 'High', 'Medium', 'Low', 'Lowest'] as const;
