import { WorkspaceFileError } from './errors.ts';

export type PathPart = string | number;

/** A place in the workspace file as people read it: `projects[2].workflow.transitions[0].to`. */
export function filePath(...parts: readonly PathPart[]): string {
  let path = '';
  for (const part of parts) {
    if (typeof part === 'number') path += `[${part}]`;
    else if (part !== '') path += path ? `.${part}` : part;
  }
  return path;
}

/** A JSON pointer from Ajv (`/projects/2/key`) in the file's own notation (`projects[2].key`). */
export function pointerToPath(pointer: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  return filePath(...parts);
}

/** Stops the apply: the mistake, named by its place in the file. */
export function fail(path: string, reason: string): never {
  throw new WorkspaceFileError(path, reason);
}
