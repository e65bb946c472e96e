import type { ApiError } from '../../../../core/errors.ts';
import type { BoardSettings } from '../../../../modules/boards/index.ts';
import { button, field, form } from '../../../components/index.ts';
import { refusedForm, type FormState, type FormValues } from '../../../forms.ts';
import { html, type Html } from '../../../html.ts';
import type { Session } from '../../../session.ts';

// The board's settings form: its fields are flat (`column-1-name`), read back into the body of
// create_board or update_board, and a refusal's JSON pointer (`/columns/1/min`) found at its field.

export const SWIMLANE_CHOICES = [
  { value: 'none', label: 'No swimlanes' },
  { value: 'assignee', label: 'Assignee' },
  { value: 'parent', label: 'Parent' },
  { value: 'priority', label: 'Priority' },
] as const;

const KIND_CHOICES = [
  { value: 'scrum', label: 'Scrum (sprints)' },
  { value: 'kanban', label: 'Kanban' },
];

const BOARD_FIELDS = ['name', 'kind', 'projects', 'all_projects', 'swimlanes'];

/** The form's values for the board as it is stored. */
export function settingsValues(settings: BoardSettings): FormValues {
  const values: Record<string, string | readonly string[]> = {
    name: settings.name,
    kind: settings.kind,
    projects: settings.projects.join(', '),
    swimlanes: settings.swimlanes,
    'column-count': String(settings.columns.length),
  };
  if (settings.all_projects) values.all_projects = 'on';
  values.filter_types = settings.filter.types.join(', ');
  values.filter_labels = settings.filter.labels.join(', ');
  values['quick-count'] = String(settings.quick_filters.length);
  settings.quick_filters.forEach((quick, q) => {
    values[`quick-${q}-name`] = quick.name;
    values[`quick-${q}-assignee`] = quick.assignee ?? '';
    values[`quick-${q}-label`] = quick.label ?? '';
    values[`quick-${q}-type`] = quick.type ?? '';
  });
  for (const column of settings.columns) {
    values[`column-${column.index}-name`] = column.name ?? '';
    values[`column-${column.index}-statuses`] = column.statuses;
    values[`column-${column.index}-min`] = column.min === null ? '' : String(column.min);
    values[`column-${column.index}-max`] = column.max === null ? '' : String(column.max);
  }
  return values;
}

const one = (values: FormValues, name: string): string => {
  const value = values[name];
  return (typeof value === 'string' ? value : (value?.[0] ?? '')).trim();
};
const many = (values: FormValues, name: string): string[] => {
  const value = values[name];
  return (value === undefined ? [] : typeof value === 'string' ? [value] : [...value]).filter((v) => v.trim() !== '');
};
/** A limit as typed: empty is none, digits a number, anything else left for the operation to refuse at its field. */
const limit = (text: string): number | string | null => (text === '' ? null : /^\d+$/.test(text) ? Number(text) : text);

export const columnCount = (values: FormValues): number => Math.max(0, Math.min(100, Number(one(values, 'column-count')) || 0));

/** The form's rows in the order they are sent: each a row of the form, or `new` for the column being added. */
export type Row = number | 'new';

/** The rows a form sends: its columns in order, and the new one when something is written in it. */
export function formRows(values: FormValues): Row[] {
  const rows: Row[] = Array.from({ length: columnCount(values) }, (_, i) => i);
  if (one(values, 'column-new-name') !== '' || many(values, 'column-new-statuses').length > 0) rows.push('new');
  return rows;
}

const quickCount = (values: FormValues): number => Math.max(0, Math.min(100, Number(one(values, 'quick-count')) || 0));

/** The quick filters a form sends: those not marked Remove, and the new one when it is named. */
export function quickRows(values: FormValues): Row[] {
  const rows: Row[] = Array.from({ length: quickCount(values) }, (_, i) => i).filter((i) => one(values, `quick-${i}-remove`) !== 'on');
  if (one(values, 'quick-new-name') !== '') rows.push('new');
  return rows;
}

/** The body of create_board or update_board from the form's fields, its columns in the order of `rows`. */
export function settingsBody(values: FormValues, rows: readonly Row[] | null): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: one(values, 'name'),
    kind: one(values, 'kind'),
    all_projects: one(values, 'all_projects') === 'on',
    projects: one(values, 'projects')
      .split(',')
      .map((key) => key.trim())
      .filter((key) => key !== ''),
  };
  const words = (name: string) =>
    one(values, name)
      .split(',')
      .map((word) => word.trim())
      .filter((word) => word !== '');
  if (values.filter_types !== undefined || values.filter_labels !== undefined) {
    body.filter = { types: words('filter_types'), labels: words('filter_labels') };
  }
  const swimlanes = one(values, 'swimlanes');
  if (swimlanes !== '') body.swimlanes = swimlanes;
  if (values['quick-count'] !== undefined) {
    body.quick_filters = quickRows(values).map((row) => ({
      name: one(values, `quick-${row}-name`),
      assignee: one(values, `quick-${row}-assignee`) || null,
      label: one(values, `quick-${row}-label`) || null,
      type: one(values, `quick-${row}-type`) || null,
    }));
  }
  if (rows !== null) {
    body.columns = rows.map((row) => ({
      name: one(values, `column-${row}-name`) || null,
      statuses: many(values, `column-${row}-statuses`),
      min: limit(one(values, `column-${row}-min`)),
      max: limit(one(values, `column-${row}-max`)),
    }));
  }
  return body;
}

const POINTER = /^\/columns\/(\d+)\/(name|statuses|min|max)\b/;
const QUICK_POINTER = /^\/quick_filters\/(\d+)\/(name|assignee|label|type)\b/;

/** A refusal at its field: `/columns/2/min` is the min field of the form's row sent third. */
export function refusedSettings(error: ApiError, values: FormValues, rows: readonly Row[]): FormState {
  const match = error.code === 'invalid' ? POINTER.exec(error.message) : null;
  const row = match ? rows[Number(match[1])] : undefined;
  if (match && row !== undefined) {
    const reason = error.message.replace(/^[^:]*: /, '');
    return { values, errors: { [`column-${row}-${match[2]}`]: reason.charAt(0).toUpperCase() + reason.slice(1) }, problem: null };
  }
  const filter = error.code === 'invalid' ? /^\/filter\/(types|labels)\b/.exec(error.message) : null;
  if (filter) {
    const reason = error.message.replace(/^[^:]*: /, '');
    return { values, errors: { [`filter_${filter[1]}`]: reason.charAt(0).toUpperCase() + reason.slice(1) }, problem: null };
  }
  const quick = error.code === 'invalid' ? QUICK_POINTER.exec(error.message) : null;
  const quickRow = quick ? quickRows(values)[Number(quick[1])] : undefined;
  if (quick && quickRow !== undefined) {
    const reason = error.message.replace(/^[^:]*: /, '');
    return { values, errors: { [`quick-${quickRow}-${quick[2]}`]: reason.charAt(0).toUpperCase() + reason.slice(1) }, problem: null };
  }
  return refusedForm(error, values, BOARD_FIELDS);
}

const ASSIGNEE_CHOICES = [
  { value: '', label: 'Anyone' },
  { value: 'me', label: 'Me (whoever looks)' },
  { value: 'unassigned', label: 'Nobody (unassigned)' },
];

/** One quick filter's fields, named after it; a stored one can be marked to remove at the next save. */
function quickFields(row: Row, position: number, state: FormState): Html {
  const typed = one(state.values, `quick-${row}-name`);
  const label = row === 'new' ? 'the new quick filter' : typed || `quick filter ${position + 1}`;
  const title = row === 'new' ? 'Add a quick filter' : `Quick filter ${position + 1}${typed ? `: ${typed}` : ''}`;
  return html`<fieldset class="card board-column-settings"><legend>${title}</legend>
${field({ name: `quick-${row}-name`, label: `Name of ${label}`, optional: row === 'new', state })}
${field({ name: `quick-${row}-assignee`, label: `Assignee of ${label}`, type: 'select', choices: ASSIGNEE_CHOICES, state })}
${field({ name: `quick-${row}-label`, label: `Label of ${label}`, optional: true, state })}
${field({ name: `quick-${row}-type`, label: `Ticket type of ${label}`, optional: true, state })}
${row === 'new' ? '' : field({ name: `quick-${row}-remove`, label: `Remove ${label}`, type: 'checkbox', state })}</fieldset>`;
}

/** The quick filters the board page offers: each matches the cards meeting every criterion given. */
function quickFilterFields(state: FormState): Html {
  const count = quickCount(state.values);
  return html`<h2>Quick filters</h2><p class="hint">Links on the board page that show only the cards matching every criterion given.</p>
<input type="hidden" name="quick-count" value="${String(count)}">
<div class="board-columns-settings">${Array.from({ length: count }, (_, i) => quickFields(i, i, state))}${quickFields('new', count, state)}</div>`;
}

/** The board's own fields: name, kind, projects, swimlanes. */
export function boardFields(state: FormState, projectKeys: readonly string[], isAdmin: boolean): Html {
  return html`${field({ name: 'name', label: 'Board name', state })}
${field({ name: 'kind', label: 'Kind', type: 'select', choices: KIND_CHOICES, state })}
${field({ name: 'projects', label: 'Projects', hint: `Project keys, separated by commas: ${projectKeys.join(', ') || 'none you can see'}.`, state })}
${isAdmin ? field({ name: 'all_projects', label: 'Every project, present and future', type: 'checkbox', state }) : ''}
${field({ name: 'filter_types', label: 'Only these ticket types', hint: 'Type names, separated by commas; left empty, every type.', optional: true, state })}
${field({ name: 'filter_labels', label: 'Only tickets with one of these labels', hint: 'Labels, separated by commas; left empty, any.', optional: true, state })}
${field({ name: 'swimlanes', label: 'Swimlanes', hint: 'The rows the board groups its cards into.', type: 'select', choices: SWIMLANE_CHOICES, state })}`;
}

function statusChoices(row: Row, label: string, statuses: readonly string[], state: FormState): Html {
  const name = `column-${row}-statuses`;
  const chosen = new Set(many(state.values, name).map((s) => s.toLowerCase()));
  const error = state.errors[name];
  const id = `field-${name}`;
  return html`<fieldset class="field statuses"${error ? html` aria-describedby="${id}-error"` : ''}><legend>Statuses of ${label}</legend>${statuses.map(
    (status, s) =>
      html`<label for="${id}-${String(s)}" class="check"><input type="checkbox" id="${id}-${String(s)}" name="${name}" value="${status}"${chosen.has(status.toLowerCase()) ? html` checked` : ''}> ${status}</label> `,
  )}${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}</fieldset>`;
}

/** One column's fields, named after it so that every control says which column it is about. */
function columnFields(row: Row, position: number, statuses: readonly string[], state: FormState, actions: Html | ''): Html {
  const typed = one(state.values, `column-${row}-name`);
  const label = row === 'new' ? 'the new column' : typed || `column ${position + 1}`;
  const title = row === 'new' ? 'Add a column' : `Column ${position + 1}${typed ? `: ${typed}` : ''}`;
  return html`<fieldset class="card board-column-settings"><legend>${title}</legend>
${field({ name: `column-${row}-name`, label: `Name of ${label}`, optional: true, state })}
${statusChoices(row, label, statuses, state)}
${field({ name: `column-${row}-min`, label: `Work-in-progress minimum of ${label}`, type: 'number', optional: true, state })}
${field({ name: `column-${row}-max`, label: `Work-in-progress maximum of ${label}`, type: 'number', optional: true, state })}
${actions}</fieldset>`;
}

/**
 * The settings form of board `number`: its fields, every column with its statuses and limits,
 * a blank column to add, and per column Move left / Move right / Remove — buttons of the separate
 * `column-actions` form (HTML's `form` attribute), so Enter in a field always means Save.
 */
export function settingsForm(
  session: Session,
  number: number,
  state: FormState,
  choices: { projectKeys: readonly string[]; statuses: readonly string[]; isAdmin: boolean },
): Html {
  const count = columnCount(state.values);
  const columns = Array.from({ length: count }, (_, i) => {
    const name = one(state.values, `column-${i}-name`) || `column ${i + 1}`;
    const actions = html`<div class="form-actions">${i > 0 ? columnButton('Move left', `Move left: ${name}`, `${i}:left`) : ''}${
      i < count - 1 ? columnButton('Move right', `Move right: ${name}`, `${i}:right`) : ''
    }${count > 1 ? columnButton('Remove', `Remove ${name}`, `${i}:remove`, 'danger') : ''}</div>`;
    return columnFields(i, i, choices.statuses, state, actions);
  });
  const content = html`${boardFields(state, choices.projectKeys, choices.isAdmin)}
<input type="hidden" name="column-count" value="${String(count)}">
<h2>Columns</h2>
<div class="board-columns-settings">${columns}${columnFields('new', count, choices.statuses, state, '')}</div>
${quickFilterFields(state)}
<div class="form-actions">${button('Save board')}</div>`;
  return form(session, `/boards/${number}/settings`, content, { id: 'board-settings', state, plain: true });
}

function columnButton(text: string, label: string, value: string, kind: 'secondary' | 'danger' = 'secondary'): Html {
  return html`<button type="submit" class="btn ${kind}" form="column-actions" name="column" value="${value}" aria-label="${label}">${text}</button>`;
}

/** The form the columns' Move and Remove buttons belong to: it sends which column, and what to do with it. */
export function columnActionsForm(session: Session, number: number): Html {
  return form(session, `/boards/${number}/settings/columns`, html``, { id: 'column-actions', plain: true });
}
