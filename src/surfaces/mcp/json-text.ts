/**
 * JSON already serialized by the REST response serializer, carried in an answer as is. A tool's
 * `structuredContent` is the same JSON as its text content: parsing that text back into objects
 * only for JSON.stringify to write it out again cost more CPU than the rest of the MCP envelope
 * (issue 15: about 0.6 ms a call for a page of 20 tickets on a busy machine).
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
 * A JSON-RPC message as text, with a `result.structuredContent` that is a JsonText written as its
 * text. Anything else is plain JSON.stringify.
 */
export function encodeMessage(message: unknown): string {
  const result = (message as { result?: { structuredContent?: unknown } } | null)?.result;
  if (!(result?.structuredContent instanceof JsonText)) return JSON.stringify(message);
  const { structuredContent, ...others } = result;
  const head = JSON.stringify({ ...(message as object), result: others });
  // head ends with the result's and the message's closing braces; others is never empty (content, isError).
  return `${head.slice(0, -2)},"structuredContent":${structuredContent.text}}}`;
}

/** A batch's answers, each as encodeMessage writes it. */
export function encodeMessages(messages: readonly unknown[]): string {
  return `[${messages.map(encodeMessage).join(',')}]`;
}
