import { ErrorCode, type JSONRPCErrorResponse, type RequestId } from '@modelcontextprotocol/sdk/types.js';

/** Spec 4.8 item 7 and part 9: the versions `/mcp` speaks, newest first. */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export type ProtocolVersion = (typeof PROTOCOL_VERSIONS)[number];
export const NEWEST_VERSION: ProtocolVersion = PROTOCOL_VERSIONS[0];

/** What the 2025-11-25 transport says a server assumes when a request carries no version header. */
export const VERSION_WITHOUT_HEADER: ProtocolVersion = '2025-03-26';

export function isProtocolVersion(value: unknown): value is ProtocolVersion {
  return typeof value === 'string' && (PROTOCOL_VERSIONS as readonly string[]).includes(value);
}

/** `initialize` answers the version asked for when it is one we speak, else the newest. */
export function negotiateVersion(requested: unknown): ProtocolVersion {
  return isProtocolVersion(requested) ? requested : NEWEST_VERSION;
}

/**
 * What the fields of a tool and a tool result may hold at a version: `annotations` came with
 * 2025-03-26; `title`, `outputSchema` and `structuredContent` with 2025-06-18.
 */
export interface VersionFeatures {
  annotations: boolean;
  structured: boolean;
}

export function featuresOf(version: ProtocolVersion): VersionFeatures {
  return {
    annotations: version !== '2024-11-05',
    structured: version !== '2024-11-05' && version !== '2025-03-26',
  };
}

export { ErrorCode };

export function rpcError(id: RequestId | null, code: number, message: string): JSONRPCErrorResponse {
  // JSON-RPC 2.0 answers an error whose request id could not be read with `id: null`.
  return { jsonrpc: '2.0', id: id as RequestId, error: { code, message } };
}
