import { normalizeLabel } from '../../../core/names.ts';
import type { SprintList } from '../../../modules/boards/index.ts';
import type { Ticket, TicketDetail } from '../../../modules/tickets/index.ts';
import { runAsMember, type Outcome, type PagePost } from '../../actions.ts';
import type { Choice } from '../../components/field.ts';
import { button, field } from '../../components/index.ts';
import type { Flash } from '../../components/flash-message.ts';
import type { ReportLine } from '../../flash.ts';
import type { FormState, FormValues } from '../../forms.ts';
import { html, type Html } from '../../html.ts';
import { ticketLink } from '../../links.ts';
import type { PagesDeps } from '../../session.ts';

/** Where the bulk form posts. */
export const BULK_PATH = '/tickets/bulk';

/** At most a page of the search (spec 8: limit up to 100) is changed at once. */
export const MOST_AT_ONCE = 100;

export type BulkAction = 'label' | 'transition' | 'assign' | 'sprint';

/** A change asked for: what, to which tickets, and its one argument. */
export interface BulkChange {
  action: BulkAction;
  keys: string[];
  /** The transition's name; `unassigned` or a person's id; the labels; `<board>:<sprint id or backlog>`. */
  value: string;
}

/** The field each action reads its argument from. */
const ARGUMENT: Record<BulkAction, { field: string; missing: string }> = {
  label: { field: 'bulk_labels', missing: 'Write at least one label to add.' },
  transition: { field: 'bulk_transition', missing: 'Choose a transition.' },
  assign: { field: 'bulk_assignee', missing: 'Choose whom to assign them to.' },
  sprint: { field: 'bulk_sprint', missing: 'Choose a sprint.' },
};

const isAction = (value: string | undefined): value is BulkAction => value !== undefined && value in ARGUMENT;

const texts = (value: string | readonly string[] | undefined): string[] =>
  (value === undefined ? [] : typeof value === 'string' ? [value] : [...value]).map((v) => v.trim()).filter((v) => v !== '');

/** The tickets ticked, each once, in the order of the page. */
export const selectedKeys = (values: FormValues): string[] => [...new Set(texts(values.key).map((k) => k.toUpperCase()))];

/** The change a bulk form asks for, or the form again with what is missing at its field. */
export function readBulkChange(values: FormValues): { change: BulkChange } | { refused: FormState } {
  const keys = selectedKeys(values);
  const action = texts(values.action)[0];
  const refused = (errors: Record<string, string>, problem: string | null = null) => ({ refused: { values, errors, problem } });
  if (!isAction(action)) return refused({}, 'Choose what to do with the selected tickets.');
  if (keys.length === 0) return refused({}, 'Select at least one ticket.');
  if (keys.length > MOST_AT_ONCE) return refused({}, `Select at most ${MOST_AT_ONCE} tickets at once.`);
  const argument = ARGUMENT[action];
  const value = texts(values[argument.field])[0];
  if (value === undefined) return refused({ [argument.field]: argument.missing });
  return { change: { action, keys, value } };
}

/** A refusal's reason as the report says it: the ApiError's message, without the JSON pointer a field would carry. */
const reasonOf = (message: string) => message.replace(/^\/[^:\s]*: /, '');

const labelsOf = (value: string) => [
  ...new Set(
    value
      .split(',')
      .map(normalizeLabel)
      .filter((l) => l !== ''),
  ),
];

/** The sprint choice's board and sprint: `<number>:<sprint id or backlog>`. */
function sprintTarget(value: string): { number: number; sprint: string } | null {
  const match = /^(\d{1,9}):(.+)$/.exec(value);
  return match ? { number: Number(match[1]), sprint: match[2]! } : null;
}

type Asker = Pick<PagePost, 'request' | 'session'>;

/**
 * One ticket changed the way the API changes one ticket: transition_ticket, assign_ticket,
 * update_ticket (its labels and the new ones: PATCH replaces the list) or move_to_sprint. Each
 * runs in its own transaction with its own history entry; a refused one changes nothing.
 */
async function changeOne(deps: PagesDeps, asker: Asker, change: BulkChange, key: string, sprintName: string): Promise<ReportLine> {
  const line = (outcome: Outcome<Ticket>, said: (ticket: Ticket) => string): ReportLine =>
    outcome.ok
      ? { subject: key, done: true, text: said(outcome.value) }
      : { subject: key, done: false, text: reasonOf(outcome.error.message) };
  const params = { key };
  switch (change.action) {
    case 'transition': {
      const outcome = await runAsMember<Ticket>(deps, asker, 'transition_ticket', { params, body: { transition: change.value } });
      return line(outcome, (t) => `now ${t.status?.name ?? 'moved'}`);
    }
    case 'assign': {
      const assignee = change.value === 'unassigned' ? null : change.value;
      const outcome = await runAsMember<Ticket>(deps, asker, 'assign_ticket', { params, body: { assignee } });
      return line(outcome, (t) => (t.assignee ? `assigned to ${t.assignee.name}` : 'unassigned'));
    }
    case 'label': {
      const read = await runAsMember<TicketDetail>(deps, asker, 'get_ticket', { params });
      if (!read.ok) return { subject: key, done: false, text: reasonOf(read.error.message) };
      const added = labelsOf(change.value).filter((l) => !read.value.labels.includes(l));
      if (added.length === 0) return { subject: key, done: true, text: 'already had these labels' };
      const outcome = await runAsMember<Ticket>(deps, asker, 'update_ticket', {
        params,
        body: { labels: [...read.value.labels, ...added] },
      });
      return line(outcome, (t) => `labels now ${t.labels.join(', ')}`);
    }
    case 'sprint': {
      const target = sprintTarget(change.value);
      if (!target) return { subject: key, done: false, text: 'There is no such sprint.' };
      const outcome = await runAsMember<Ticket>(deps, asker, 'move_to_sprint', {
        params: { number: target.number },
        body: { key, sprint: target.sprint },
      });
      return line(outcome, () => `moved to ${sprintName}`);
    }
  }
}

/** The change made to each ticket one after another, as the API would one request at a time: a line per ticket. */
export async function runBulkChange(deps: PagesDeps, asker: Asker, change: BulkChange): Promise<ReportLine[]> {
  const sprintName = change.action === 'sprint' ? await sprintNameOf(deps, asker, change.value) : '';
  const lines: ReportLine[] = [];
  for (const key of change.keys) lines.push(await changeOne(deps, asker, change, key, sprintName));
  return lines;
}

/** The words a move to a sprint is reported with: the sprint's name (list_sprints), or the backlog. */
async function sprintNameOf(deps: PagesDeps, asker: Asker, value: string): Promise<string> {
  const target = sprintTarget(value);
  if (!target) return value;
  if (target.sprint === 'backlog') return 'the backlog';
  const listed = await runAsMember<SprintList>(deps, asker, 'list_sprints', { params: { number: target.number } });
  return (listed.ok ? listed.value.sprints.find((s) => s.id === target.sprint)?.name : undefined) ?? target.sprint;
}

/** The message above the report: all done, some refused, or none done. */
export function reportFlash(lines: readonly ReportLine[]): Flash {
  const done = lines.filter((l) => l.done).length;
  const refused = lines.length - done;
  const tickets = (n: number) => `${n} ${n === 1 ? 'ticket' : 'tickets'}`;
  if (refused === 0) return { kind: 'success', text: `Changed ${tickets(done)}.` };
  if (done === 0) return { kind: 'error', text: `Nothing changed: ${tickets(refused)} refused.` };
  return { kind: 'info', text: `Changed ${tickets(done)}; ${tickets(refused)} refused.` };
}

/** What a bulk change did, ticket by ticket: what changed, then what was refused and why. */
export function bulkReport(lines: readonly ReportLine[]): Html {
  const done = lines.filter((l) => l.done);
  const refused = lines.filter((l) => !l.done);
  const list = (id: string, items: readonly ReportLine[]) =>
    html`<ul id="${id}">${items.map((l) => html`<li>${ticketLink(l.subject)}: ${l.text}</li>`)}</ul>`;
  return html`<section class="card" id="bulk-report" aria-labelledby="bulk-report-title"><h2 id="bulk-report-title">What the bulk change did</h2>${
    done.length ? html`<h3 id="bulk-changed-title">Changed</h3>${list('bulk-changed', done)}` : ''
  }${refused.length ? html`<h3 id="bulk-refused-title">Refused</h3>${list('bulk-refused', refused)}` : ''}</section>`;
}

/** What the bulk form offers: the transitions, people and sprints of the projects on the page. */
export interface BulkChoices {
  transitions: readonly string[];
  people: readonly { id: string; name: string }[];
  /** `<board>:<sprint id or backlog>` with its words; empty when the boards or sprints are off. */
  sprints: readonly Choice[];
}

/**
 * The bulk form's actions, each its own button beside its one field. Adding labels comes first:
 * Enter in its text field sends the form with the first button, which must be its own.
 */
export function bulkActions(choices: BulkChoices, state: FormState): Html {
  const choose = (label: string, rest: readonly Choice[]): Choice[] => [{ value: '', label }, ...rest];
  const action = (control: Html, name: string, words: string) =>
    html`<div class="bulk-action">${control}${button(words, { kind: 'secondary', name: 'action', value: name })}</div>`;
  const transitions = choose(
    'Choose a transition',
    choices.transitions.map((t) => ({ value: t, label: t })),
  );
  const people = choose('Choose a person', [
    { value: 'unassigned', label: 'Unassigned' },
    ...choices.people.map((p) => ({ value: p.id, label: p.name })),
  ]);
  return html`<section class="bulk-actions" aria-labelledby="bulk-actions-title"><h2 id="bulk-actions-title">Change the selected tickets</h2>
<p class="muted">Each ticket is changed on its own, as if done on its page: one that may not be changed is left as it is and listed with the reason.</p>
${action(field({ name: 'bulk_labels', label: 'Labels to add', hint: 'Comma-separated; new ones join the project.', state }), 'label', 'Add labels')}
${action(field({ name: 'bulk_transition', label: 'Transition', type: 'select', choices: transitions, state }), 'transition', 'Take transition')}
${action(field({ name: 'bulk_assignee', label: 'Assign to', type: 'select', choices: people, state }), 'assign', 'Assign')}
${
  choices.sprints.length
    ? action(
        field({ name: 'bulk_sprint', label: 'Sprint', type: 'select', choices: choose('Choose a sprint', choices.sprints), state }),
        'sprint',
        'Move to sprint',
      )
    : ''
}</section>`;
}
