/**
 * JSON already serialized by the REST response serializer, carried in an answer as is. A tool's
 * `structuredContent` is the same JSON as its text content: parsing that text back into objects
 * only for JSON.stringify to write it out again cost more CPU than the rest of the MCP envelope
 * (about 0.6 ms a call for a page of 20 tickets on a busy machine; ADR 0019).
 */
export class JsonText {
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  /** Any serializer that does not know this class still writes the right value, only slower. */
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/**
 * A tool's successful answer: the REST answer's JSON as the text content and, from 2025-06-18, as
 * `structuredContent`. encodeMessage writes it around that JSON without taking it apart; anything
 * else that serializes it (JSON.stringify) gets the same value.
 */
export class ToolAnswer {
  // a CallToolResult, whose type is open to more fields
  [key: string]: unknown;
  readonly content: [{ type: 'text'; text: string }];
  readonly isError = false;
  readonly structuredContent: Record<string, unknown> | undefined;

  constructor(json: string, structured: boolean) {
    this.content = [{ type: 'text', text: json }];
    this.structuredContent = structured ? (new JsonText(json) as unknown as Record<string, unknown>) : undefined;
  }

  get json(): string {
    return this.content[0].text;
  }
}

/**
 * A JSON-RPC message as text. The answer of a tool call that succeeded is written around its JSON
 * (escaped once for the text content, as is for `structuredContent`): building the envelope as
 * objects for JSON.stringify cost 3 µs of a 160 µs call, and copied a large answer once more
 * (ADR 0019). Anything else is plain JSON.stringify.
 */
export function encodeMessage(message: unknown): string {
  const { id, result } = (message ?? {}) as { id?: unknown; result?: unknown };
  if (!(result instanceof ToolAnswer)) return JSON.stringify(message);
  const { json } = result;
  const structured = result.structuredContent === undefined ? '' : `,"structuredContent":${json}`;
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":${JSON.stringify(json)}}],"isError":false${structured}}}`;
}

/** A batch's answers, each as encodeMessage writes it. */
export function encodeMessages(messages: readonly unknown[]): string {
  return `[${messages.map(encodeMessage).join(',')}]`;
}
