// Preload for MCP clients that cannot send headers (the Inspector 0.15 CLI, the conformance
// suite): adds `Authorization: Bearer $MCP_TEST_BEARER` to every fetch that carries none.
const token = process.env.MCP_TEST_BEARER;
const originalFetch = globalThis.fetch;
globalThis.fetch = (input, init = {}) => {
  const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined));
  if (token && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
  return originalFetch(input, { ...init, headers });
};
