import { html, type Html } from '../../html.ts';

/** A list a card can go to: a board's column, a sprint, the backlog; `value` is what the move names it by. */
export interface MoveList {
  value: string;
  name: string;
  /** Its cards' keys in rank order. */
  keys: readonly string[];
}

interface Choice {
  value: string;
  label: string;
}

/**
 * Where a card can go, as one select: the top or the bottom of every other list, and up or down
 * one place in its own. A value is `<list>` (its end), or `<list>:before:<key>` / `<list>:after:<key>`,
 * the same placement a drop sends (`before`/`after` a neighbour).
 */
function choices(key: string, lists: readonly MoveList[], current: number): Choice[] {
  return lists.flatMap((list, index): Choice[] => {
    if (index !== current) {
      const top = list.keys[0];
      return [
        ...(top ? [{ value: `${list.value}:before:${top}`, label: `${list.name}: at the top` }] : []),
        { value: list.value, label: `${list.name}: at the bottom` },
      ];
    }
    const at = list.keys.indexOf(key);
    const last = list.keys.length - 1;
    const here: Choice[] = [];
    if (at > 0) here.push({ value: `${list.value}:before:${list.keys[0]}`, label: `${list.name}: at the top` });
    if (at > 1) here.push({ value: `${list.value}:before:${list.keys[at - 1]}`, label: `Up one place, above ${list.keys[at - 1]}` });
    if (at >= 0 && at < last - 1)
      here.push({ value: `${list.value}:after:${list.keys[at + 1]}`, label: `Down one place, below ${list.keys[at + 1]}` });
    if (at >= 0 && at < last) here.push({ value: list.value, label: `${list.name}: at the bottom` });
    return here;
  });
}

/** A chosen place, read back from the select's value. */
export interface Target {
  list: string;
  before?: string;
  after?: string;
}

export function readTarget(value: string): Target | null {
  const match = /^([^:]+)(?::(before|after):(.+))?$/.exec(value.trim());
  if (!match) return null;
  const [, list, side, key] = match;
  return side === 'before' ? { list: list!, before: key! } : side === 'after' ? { list: list!, after: key! } : { list: list! };
}

export interface MoveMenu {
  /** Where the form posts, with the CSRF token of that action (the same for every card: made once per page). */
  action: string;
  csrf: string;
  lists: readonly MoveList[];
  /** Hidden fields every card's form carries (the board's sprint view, to come back to). */
  hidden?: Readonly<Record<string, string>>;
}

/** Whether a card has anywhere to go: another list, or another place in its own. */
export function canGo(lists: readonly MoveList[], current: number): boolean {
  return lists.length > 1 || (lists[current]?.keys.length ?? 0) > 1;
}

/**
 * The keyboard's (and no script's) way to drag, as each card carries it: a "Move to…" link to a
 * page of its own with the form (`href`). With htmx the link takes the form in its place, its
 * select focused, so from the keyboard it is: activate, choose, Move. Only the link is on every
 * card: the forms, with their select of every place, made most of a long backlog's page.
 */
export function moveLink(href: string, key: string): Html {
  return html`<a class="move" href="${href}" hx-get="${href}" hx-target="this" hx-swap="outerHTML">Move to…<span class="visually-hidden"> ${key}</span></a>`;
}

/**
 * The form "Move to…" brings: one select of places and a Move button, posting what a drop posts,
 * one request per move. Brought in place, its select takes the focus (and the live refresh waits
 * while it has it: app.js).
 */
export function moveForm(menu: MoveMenu, key: string, current: number): Html {
  const options = choices(key, menu.lists, current);
  if (!options.length) return html``;
  const own = menu.lists[current]?.value;
  // the first place outside the card's own list: the move most often made
  const preferred = options.findIndex((c) => c.value !== own && !c.value.startsWith(`${own}:`));
  const selected = Math.max(preferred, 0);
  const id = `move-${key}`;
  const hidden = Object.entries(menu.hidden ?? {}).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
  return html`<form class="move" method="post" action="${menu.action}"><input type="hidden" name="csrf" value="${menu.csrf}"><input type="hidden" name="key" value="${key}">${hidden}<label for="${id}">Move ${key} to</label> <select id="${id}" name="to" autofocus>${options.map(
    (c, i) => html`<option value="${c.value}"${i === selected ? html` selected` : ''}>${c.label}</option>`,
  )}</select> <button type="submit" class="btn secondary">Move</button></form>`;
}
