import { parse, YAMLParseError } from 'yaml';
import { WorkspaceFileError } from './errors.ts';

/** YAML text to a plain value; a syntax error names the file, line and column. */
export function parseWorkspaceYaml(text: string, fileName = 'workspace file'): unknown {
  try {
    return parse(text, { prettyErrors: true, uniqueKeys: true }) ?? {};
  } catch (error) {
    if (error instanceof YAMLParseError) {
      const position = error.linePos?.[0];
      const where = position ? `line ${position.line}, column ${position.col}` : 'syntax';
      // The pretty message repeats the position and quotes the line; the first clause is the reason.
      const reason = (error.message.split('\n')[0] ?? 'not valid YAML').replace(/ at line \d+, column \d+:?$/, '');
      throw new WorkspaceFileError(`${fileName} ${where}`, reason);
    }
    throw error;
  }
}
