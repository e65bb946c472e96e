#!/usr/bin/env node
// No build step between a clone and a running service: the CLI runs from `dist/`, the sources
// with their types stripped, made again whenever they change (bin/compiled-sources.js). Without
// `dist/` it runs the sources: Node strips them as it loads them where it can (22.18 and later),
// tsx where it cannot (22.12), whose loader thread holds about 60 MiB more and slows the start.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { compiledSources } from './compiled-sources.js';

const compiled = compiledSources();
if (compiled) {
  await import(pathToFileURL(path.join(compiled, 'cli.js')).href);
} else {
  if (!process.features.typescript) {
    const { register } = await import('tsx/esm/api');
    register();
  }
  await import('../src/cli.ts');
}
