import { BODY_LIMIT } from '../../core/request-size.ts';
import type { Toolset } from './tools.ts';

/** The most /mcp reads of any request before looking inside: the largest request a tool takes. */
export function largestRequest(toolset: Toolset): number {
  let largest = BODY_LIMIT;
  for (const entry of toolset.entries) largest = Math.max(largest, entry.op.requestLimit);
  return largest;
}

function messageLimit(message: unknown, toolset: Toolset): number {
  if (typeof message !== 'object' || message === null) return BODY_LIMIT;
  const { method, params } = message as { method?: unknown; params?: { name?: unknown } | null };
  if (method !== 'tools/call' || typeof params?.name !== 'string') return BODY_LIMIT;
  return toolset.byName.get(params.name)?.op.requestLimit ?? BODY_LIMIT;
}

/** How large a body may be for what it asks: its tool's limit (a batch: its largest); 1 MiB for anything else. */
export function requestLimitFor(body: unknown, toolset: Toolset): number {
  if (!Array.isArray(body)) return messageLimit(body, toolset);
  let limit = BODY_LIMIT;
  for (const message of body) limit = Math.max(limit, messageLimit(message, toolset));
  return limit;
}

/** Whether a body's UTF-8 is longer than the limit; counted only when it may be (a UTF-16 unit is at most 3 bytes). */
export function longerThan(text: unknown, limit: number): boolean {
  return typeof text === 'string' && text.length * 3 > limit && Buffer.byteLength(text, 'utf8') > limit;
}
