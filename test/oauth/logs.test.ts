import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogLines } from '../helpers/log-capture.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { exchange, loggedIn, me, obtainCode, refreshWith, registerClient, send } from './support.ts';

const { sink, lines } = captureLogLines();

let service: TestService;
const secrets: string[] = [];

beforeAll(async () => {
  service = await startTestService({ publicUrl: 'https://acme.example.test', logStream: sink, logLevel: 'debug' });
  const confidential = await registerClient(service, {
    redirect_uris: ['https://app.example.org/cb'],
    token_endpoint_auth_method: 'client_secret_post',
  });
  const evil = await registerClient(service);
  const browser = await loggedIn(service);
  const flow = await obtainCode(service, { client: confidential, browser });
  const pair = (await exchange(service, flow, { client_secret: confidential.client_secret! })).json;
  await me(service, pair.access_token);
  await refreshWith(service, evil, pair.refresh_token);
  const next = (await refreshWith(service, confidential, pair.refresh_token, { client_secret: confidential.client_secret! })).json;
  await refreshWith(service, confidential, pair.refresh_token, { client_secret: confidential.client_secret! });
  await send(service, 'POST', '/oauth/revoke', {
    form: { token: next.access_token, client_id: confidential.client_id, client_secret: confidential.client_secret! },
  });
  secrets.push(
    flow.code,
    flow.pkce.verifier,
    pair.access_token,
    pair.refresh_token,
    next.access_token,
    next.refresh_token,
    confidential.client_secret!,
    'lee-password',
  );
});
afterAll(async () => service?.close());

describe('STORE-5: no token, code, verifier, secret or password reaches the logs', () => {
  it('logs a whole OAuth session without any of them', () => {
    const everything = lines.join('\n');
    expect(lines.length).toBeGreaterThan(10);
    for (const secret of secrets) expect(everything).not.toContain(secret);
    for (const marker of ['svc_oat_', 'svc_ort_', 'svc_cs_', 'code=', 'code_verifier=', 'client_secret=', 'Bearer ']) {
      expect(everything).not.toContain(marker);
    }
  });
});
