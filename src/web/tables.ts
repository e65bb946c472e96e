/** The pages' own table (migration 0015); sessions themselves are the OAuth server's (oauth/tables.ts). */
export interface WebFlashesTable {
  session_hash: string;
  /** base64url(iv ‖ tag ‖ AES-256-GCM ciphertext) of the JSON message. */
  sealed: string;
  created_at: string;
}

declare module '../storage/schema.ts' {
  interface DB {
    web_flashes: WebFlashesTable;
  }
}
