import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTING_SWITCHES, type SwitchableModule } from '../../src/core/settings.ts';
import type { TestService } from '../helpers/service.ts';
import { Browser, formFields } from '../oauth/support.ts';
import { api, knowledgeWorkspace, startKnowledge, type KnowledgeTokens } from './support.ts';

const BOARDS = `
boards:
  - number: 1
    name: Core flow
    kind: scrum
    projects: [CORE]
    columns:
      - { name: Waiting, statuses: [To Do] }
      - { name: Finished, statuses: [Done] }
`;

let service: TestService;
let t: KnowledgeTokens;
let call: ReturnType<typeof api>;
let ada: Browser;
let lee: Browser;

beforeAll(async () => {
  ({ service, t } = await startKnowledge(knowledgeWorkspace('', BOARDS)));
  call = api(service);
  ada = new Browser(service);
  lee = new Browser(service);
  expect((await ada.logIn('ada@example.com', 'ada-password')).status).toBe(303);
  expect((await lee.logIn('lee@example.com', 'lee-password')).status).toBe(303);
});
afterAll(() => service.close());

/** The administrator turns one module off or on with the settings form, everything else on. */
async function turn(module: SwitchableModule, on: boolean): Promise<void> {
  const fields = formFields((await ada.get('/admin/settings')).text, '/admin/settings');
  const all = Object.fromEntries(SETTING_SWITCHES.map((name) => [name, 'on']));
  expect((await ada.post('/admin/settings', { ...fields, ...all, [module]: on ? 'on' : '' })).status).toBe(303);
}

describe('1 a page of a switched-off module refuses as its operations do: 403 saying the module is off', () => {
  it('the knowledge trash neither lists nor restores deleted pages while the knowledge base is off', async () => {
    await call(t.lee, 'POST', '/spaces/ENG/pages', { title: 'Old notes', body: 'Kept for a while.' });
    const deleted = await call(t.lee, 'DELETE', '/spaces/ENG/pages/old-notes');
    expect(deleted.status).toBe(200);
    const listed = await lee.get('/knowledge/ENG/trash');
    expect(listed.text).toContain('data-slug="old-notes"');
    const restore = `/knowledge/ENG/trash/${deleted.body.id}/restore`;
    const form = formFields(listed.text, restore);

    await turn('knowledge', false);
    try {
      expect((await call(t.lee, 'GET', '/spaces/ENG/tree')).body.error.code).toBe('feature_disabled');
      const page = await lee.get('/knowledge/ENG/trash');
      expect(page.status).toBe(403);
      expect(page.text).toContain('The knowledge base module is switched off in this workspace');
      expect(page.text).not.toContain('old-notes');
      expect(page.text).not.toContain('Old notes');
      const restored = await lee.post(restore, form);
      expect(restored.status).toBe(403);
      expect(restored.text).toContain('The knowledge base module is switched off in this workspace');
    } finally {
      await turn('knowledge', true);
    }
    expect((await call(t.lee, 'GET', '/spaces/ENG/pages/old-notes')).status).toBe(404);
    expect((await lee.get('/knowledge/ENG/trash')).text).toContain('data-slug="old-notes"');
  });

  it('the board page and its live updates refuse while boards are off, and show again once on', async () => {
    expect((await lee.get('/boards/1')).status).toBe(200);
    await turn('boards', false);
    try {
      const page = await lee.get('/boards/1');
      expect(page.status).toBe(403);
      expect(page.text).toContain('The boards module is switched off in this workspace');
      expect(page.text).not.toContain('Core flow');
      const stream = await lee.get('/events?topic=board:1');
      expect(stream.status).toBe(403);
      expect(stream.text).toBe('The boards module is switched off in this workspace');
    } finally {
      await turn('boards', true);
    }
    const again = await lee.get('/boards/1');
    expect(again.status).toBe(200);
    expect(again.text).toContain('Core flow');
  });
});
