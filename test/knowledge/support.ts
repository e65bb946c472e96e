import fs from 'node:fs';
import { FIXTURES, startTestService, type Reply, type TestService } from '../helpers/service.ts';

export interface Knowledge {
  service: TestService;
  t: KnowledgeTokens;
}

export interface KnowledgeTokens {
  ada: string;
  lee: string;
  dev1: string;
  vic: string;
  olga: string;
  leeRead: string;
}

/** The knowledge fixture, with more spaces (YAML list entries) after its own, and more top-level sections. */
export function knowledgeWorkspace(moreSpaces = '', moreSections = ''): string {
  const text = fs.readFileSync(new URL('knowledge-workspace.yaml', FIXTURES), 'utf8');
  if (!/\nspaces:\n(?: {2}.*\n|\s*\n)*$/.test(text)) throw new Error('the knowledge fixture no longer ends with spaces');
  return `${text}${moreSpaces}${moreSections}`;
}

export async function startKnowledge(workspace = 'knowledge-workspace.yaml'): Promise<Knowledge> {
  const service = await startTestService({ workspace });
  const t: KnowledgeTokens = {
    ada: await service.token('ada@example.com', 'write'),
    lee: await service.token('lee@example.com', 'write', 'Lee agent'),
    dev1: await service.token('dev1@example.com', 'write'),
    vic: await service.token('vic@example.com', 'write'),
    olga: await service.token('olga@example.com', 'write'),
    leeRead: await service.token('lee@example.com', 'read'),
  };
  return { service, t };
}

export function api(service: TestService) {
  return (token: string, method: string, path: string, body?: unknown): Promise<Reply> =>
    service.request(method, `/api/v1/knowledge${path}`, { token, ...(body === undefined ? {} : { body }) });
}

export { callTool } from '../mcp/mcp-client.ts';
