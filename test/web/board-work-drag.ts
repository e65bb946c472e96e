import type { Locator, Page } from 'playwright-core';

/** A card on a board or a backlog page: the list item holding the link of its key. */
export const card = (page: Page, key: string): Locator =>
  page.getByRole('listitem').filter({ has: page.getByRole('link', { name: key, exact: true }) });

/** A column or a sprint: the list named by its heading. */
export const list = (page: Page, name: string): Locator => page.getByRole('list', { name, exact: true });

/**
 * A card dragged with the pointer moved in steps, as a hand does: onto the top edge of `target`
 * (a card: before it), or into the room below a list's last card (`end`).
 */
export async function dragCard(page: Page, key: string, target: Locator, where: 'top' | 'end' = 'end'): Promise<void> {
  // a live refresh may replace the page's lists between two looks: look again
  let from = await card(page, key).boundingBox();
  let to = await target.boundingBox();
  for (let tries = 0; (!from || !to) && tries < 5; tries += 1) {
    from = await card(page, key).boundingBox();
    to = await target.boundingBox();
  }
  if (!from || !to) throw new Error(`${key} or where it goes is not on the page`);
  await page.mouse.move(from.x + 20, from.y + 10);
  await page.mouse.down();
  await page.mouse.move(to.x + 20, where === 'top' ? to.y + 4 : to.y + to.height - 4, { steps: 8 });
  // SortableJS looks where the pointer is every 50 ms: let go once it has put the card there
  const placed =
    where === 'end' ? target.locator(`[data-key="${key}"]`) : target.locator(`xpath=preceding-sibling::li[1][@data-key="${key}"]`);
  await placed.waitFor({ state: 'attached' });
  await page.mouse.up();
}

/** A drop, and the page drawn again as the server then has it (drag.js asks for that once the move is done). */
export async function drop(page: Page, act: () => Promise<void>): Promise<void> {
  const before = await page.evaluate(() => Number(document.body.dataset.refreshed ?? 0));
  await act();
  await page.waitForFunction((n) => Number(document.body.dataset.refreshed ?? 0) > n, before);
}

/** A scrum board over CORE with a column per status, for the board and backlog tests. */
export const CORE_SCRUM_BOARD = `
boards:
  - number: 1
    name: Core scrum
    kind: scrum
    projects: [CORE]
    columns:
      - { name: Waiting, statuses: [To Do] }
      - { name: Doing, statuses: [In Progress] }
      - { name: Finished, statuses: [Done] }
`;
