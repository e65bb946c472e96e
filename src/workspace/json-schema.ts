import { workspaceEngine } from '../modules/index.ts';

export const WORKSPACE_SCHEMA_FILE = new URL('../../docs/workspace-file.schema.json', import.meta.url);

/** The workspace file's JSON Schema, as committed in docs/workspace-file.schema.json (for editors and CI). */
export function workspaceJsonSchema(): string {
  const schema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    description:
      "Generated from src/workspace/schema.ts and the modules' workspace sections by `npm run workspace:schema`; do not edit. See docs/workspace-file.md.",
    ...JSON.parse(JSON.stringify(workspaceEngine.schema)),
  };
  return `${JSON.stringify(schema, null, 2)}\n`;
}
