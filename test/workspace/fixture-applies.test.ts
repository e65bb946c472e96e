import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';

describe('workspace file: the platform fixture applies', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('answers GET /me and GET /projects/CORE for a member the file declared', async () => {
    const token = await svc.token('lee@example.com');
    const me = await svc.request('GET', '/api/v1/me', { token });
    expect(me.status).toBe(200);
    expect(me.body.user.name).toBe('Lee Lead');
    const project = await svc.request('GET', '/api/v1/projects/CORE', { token });
    expect(project.status).toBe(200);
    expect(project.body).toMatchObject({
      key: 'CORE',
      name: 'Core platform',
      kind: 'software',
      description: "The platform tests' project",
      ticket_types: ['Task', 'Bug'],
      priorities: ['High', 'Medium', 'Low'],
      resolutions: ['Done', "Won't Do"],
      components: ['API'],
      versions: ['1.0'],
      labels: ['backend'],
    });
    expect(project.body.assignable_users.map((u: { name: string }) => u.name).sort()).toEqual([
      'Ada Admin',
      'Dev One',
      'Dev Two',
      'Lee Lead',
    ]);
  });
});
