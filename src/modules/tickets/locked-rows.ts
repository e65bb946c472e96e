/** The ticket's row a change of the ticket `key` locks: an operation's `locksRow`. */
export const ticketRow = (input: { key: string }): string => `ticket ${input.key.trim().toUpperCase()}`;

/** The counter row of the project a create takes its number from: an operation's `locksRow`. */
export const projectCounterRow = (input: { project: string }): string => `project ${input.project.trim().toUpperCase()}`;
