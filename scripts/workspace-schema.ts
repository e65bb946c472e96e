import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { WORKSPACE_SCHEMA_FILE, workspaceJsonSchema } from '../src/workspace/json-schema.ts';

// Writes docs/workspace-file.schema.json from the TypeBox declaration (src/workspace/schema.ts).
fs.writeFileSync(WORKSPACE_SCHEMA_FILE, workspaceJsonSchema());
console.log(`wrote ${fileURLToPath(WORKSPACE_SCHEMA_FILE)}`);
