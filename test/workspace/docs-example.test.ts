import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';

const DOC = fs.readFileSync(new URL('../../docs/workspace-file.md', import.meta.url), 'utf8');
const EXAMPLE = DOC.split('## A complete example')[1]!.split('```yaml\n')[1]!.split('```')[0]!;

describe('workspace file: the complete example in docs/workspace-file.md applies', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ workspace: EXAMPLE });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('its projects answer as the example states', async () => {
    const token = await svc.token('admin@example.com');
    const atr = await svc.request('GET', '/api/v1/projects/ATR', { token });
    expect(atr.body).toMatchObject({
      priorities: ['High', 'Medium', 'Low'],
      components: ['API', 'Web UI'],
      versions: ['1.0', '1.1'],
      labels: ['security', 'tech-debt'],
    });
    expect((await svc.request('GET', '/api/v1/projects/SALES', { token })).body.kind).toBe('sales');
  });
});
