import { parse, YAMLParseError } from 'yaml';
import { WorkspaceFileError } from './errors.ts';

/** YAML text to a plain value; a syntax error names the file, line and column. */
export function parseWorkspaceYaml(text: string, fileName = 'workspace file'): unknown {
  try {
    return parse(text, { prettyErrors: false, uniqueKeys: true }) ?? {};
  } catch (error) {
    if (error instanceof YAMLParseError) {
      const where = error.linePos?.[0] ? `line ${error.linePos[0].line}, column ${error.linePos[0].col}` : 'syntax';
      throw new WorkspaceFileError(`${fileName} ${where}`, error.message.split('\n')[0] ?? 'not valid YAML');
    }
    throw error;
  }
}
