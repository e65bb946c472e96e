import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileValidator } from '../../src/core/validation.ts';
import { WORKSPACE_SCHEMA_FILE, workspaceJsonSchema } from '../../src/workspace/json-schema.ts';
import { parseWorkspaceYaml } from '../../src/workspace/parse.ts';

describe('workspace file: its JSON Schema is generated from the TypeBox declaration', () => {
  it('docs/workspace-file.schema.json is what `npm run workspace:schema` writes', () => {
    expect(fs.readFileSync(WORKSPACE_SCHEMA_FILE, 'utf8')).toBe(workspaceJsonSchema());
  });

  it('the demo workspace and the test fixture validate against the committed schema', () => {
    const { $schema: _ignored, ...schema } = JSON.parse(fs.readFileSync(WORKSPACE_SCHEMA_FILE, 'utf8'));
    const validate = compileValidator(schema, 'strict');
    for (const file of ['../../examples/demo-workspace.yaml', '../fixtures/workspace.yaml']) {
      const parsed = parseWorkspaceYaml(fs.readFileSync(new URL(file, import.meta.url), 'utf8'));
      expect(validate(parsed), JSON.stringify(validate.errors)).toBe(true);
    }
    expect(validate({ projects: [{ key: 'lower' }] })).toBe(false);
  });
});
