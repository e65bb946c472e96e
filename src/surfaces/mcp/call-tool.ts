import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { fromDatabase } from '../../core/database-errors.ts';
import { ApiError, internalErrorMessage } from '../../core/errors.ts';
import { runOperation, type Call, type Principal, type Runtime } from '../../core/execute.ts';
import type { Operation } from '../../core/operation.ts';
import { TokenCheckNotPassed } from '../../core/token-check.ts';
import { validateInput, type InputParts } from '../../core/validation.ts';
import { admitOperation } from '../admission.ts';
import { logErrorCode } from '../request-log.ts';
import { ToolAnswer } from './json-text.ts';
import type { ToolEntry } from './tools.ts';

export interface ToolCallDeps {
  runtime: Runtime;
  call: Call;
  /** The REST response serializer of an operation's answer, so both doors return byte-for-byte the same data. */
  serialize(data: unknown, op: Operation): string;
}

/**
 * Arguments back into the REST operation's path, query and body. An argument the tool does not
 * take is refused, naming the ones it takes: its `inputSchema` says `additionalProperties: false`,
 * and an agent that believed a misspelt argument worked would be misled (REST, for people and
 * programs, ignores fields it does not name, as spec 4 says).
 */
function splitArguments(entry: ToolEntry, args: Record<string, unknown>): InputParts {
  const parts: InputParts = { params: {}, query: {}, body: {} };
  for (const [argument, value] of Object.entries(args)) {
    const target = entry.arguments.get(argument);
    if (!target) {
      const takes = [...entry.arguments.keys()];
      throw new ApiError(
        'invalid',
        `${entry.name} takes no argument "${argument}"; ${takes.length ? `it takes ${takes.join(', ')}` : 'it takes no arguments'}.`,
      );
    }
    parts[target.part][target.name] = value;
  }
  return parts;
}

function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * tools/call: the same validators, the same handler through runOperation, the same answer as REST
 * as `structuredContent` and as JSON text; a failure the model can act on is an error result
 * carrying the REST API's sentence.
 */
export async function callTool(
  entry: ToolEntry,
  args: Record<string, unknown>,
  principal: Principal,
  deps: ToolCallDeps,
  structuredOutput: boolean,
): Promise<CallToolResult> {
  try {
    // A switched-off module's tool, or a change with a read token, is refused whatever the arguments (spec 4, 4.8).
    admitOperation(entry.op, principal);
    const parts = splitArguments(entry, args);
    const input = validateInput(entry.op, parts, (name) => entry.op.toolArgs[name]);
    const data = await runOperation(deps.runtime, entry.op, principal, input, deps.call);
    return new ToolAnswer(deps.serialize(data, entry.op), entry.structured && structuredOutput);
  } catch (caught) {
    // the door answers the 401, or calls the tool again for the principal as it is now
    if (caught instanceof TokenCheckNotPassed) return errorResult(caught.message);
    const error = caught instanceof ApiError ? caught : fromDatabase(caught);
    if (error) {
      logErrorCode(deps.call, error.code);
      return errorResult(error.message);
    }
    logErrorCode(deps.call, 'internal');
    deps.call.log.error({ err: caught, tool: entry.name }, 'unexpected error in a tool call');
    return errorResult(internalErrorMessage(deps.call.requestId));
  }
}
