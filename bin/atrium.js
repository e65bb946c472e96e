#!/usr/bin/env node
// Runs the TypeScript sources directly: no build step between a clone and a running service.
// Node strips the types itself where it can (22.18 and later, 24); earlier releases go through
// tsx, whose loader thread holds about 60 MiB more and slows the start.
if (!process.features.typescript) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import('../src/cli.ts');
