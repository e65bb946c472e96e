// Two bare Fastify routes with no Atrium behind them: a GET answering /me's JSON, and a POST that
// reads a JSON-RPC body and answers it in a tool result's envelope, as the MCP door does. Their
// difference in CPU is what a request body and the envelope cost before any of Atrium runs.
import Fastify from 'fastify';

const ME = JSON.stringify({
  user: { id: '64b5c7fb-e5cd-4da7-94cb-a3e6edbd0ca1', name: 'Bench Agent' },
  agent: { name: 'bench', access: 'write' },
});
const JSON_TYPE = 'application/json; charset=utf-8';

const app = Fastify({ logger: false });
app.get('/me', async (_request, reply) => reply.header('Content-Type', JSON_TYPE).send(ME));
await app.register(async (door) => {
  // the MCP door's own body reading: the text as it came, parsed in the handler
  door.removeAllContentTypeParsers();
  door.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  door.post('/mcp', async (request, reply) => {
    const { id } = JSON.parse(request.body as string) as { id: unknown };
    const envelope = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":${JSON.stringify(ME)}}],"isError":false,"structuredContent":${ME}}}`;
    return reply.header('Content-Type', JSON_TYPE).send(envelope);
  });
});
const url = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ url })}\n`);

process.once('SIGTERM', async () => {
  await app.close();
  process.exit(0);
});
