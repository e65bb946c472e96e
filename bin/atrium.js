#!/usr/bin/env node
// Runs the TypeScript sources directly: no build step between a clone and a running service.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
