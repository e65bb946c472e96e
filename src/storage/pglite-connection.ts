import { EventEmitter } from 'node:events';
import type { PGlite } from '@electric-sql/pglite';
import { parse, serialize } from 'pg-protocol';
import type { BackendMessage, NotificationResponseMessage } from 'pg-protocol/dist/messages.js';

/** A NOTIFY heard in PGlite's one session: its channel and payload. */
export type NotificationHandler = (channel: string, payload: string) => void;

/**
 * pg's connection to PGlite, in place of PGlite's own (`@electric-sql/pglite/node-postgres`),
 * which runs the engine once per message and decodes every answer with PGlite's protocol parser:
 * each field of each row copied into an ArrayBuffer of its own and decoded by a TextDecoder. On a
 * company read (250 rows) that parser was about two fifths of PGlite's share of the server's time
 * (ADR 0009). Here the messages pg writes between `cork` and `uncork` (one statement's parse,
 * bind, describe, execute and sync) reach the engine as one input, and its answer is read by
 * pg-protocol's parser, the one pg uses on a socket.
 *
 * The messages pg's Client expects are emitted as pg's own Connection emits them. PGlite's
 * listeners are not fed from here: NOTIFYs go to `onNotification` (database.ts listens through
 * the pool, so LISTEN and the statements that notify share this connection).
 */
export class PgliteConnection extends EventEmitter {
  // pg's Client and Query read and write these as they do on its own Connection.
  parsedStatements: Record<string, string> = {};
  submittedNamedStatements: Record<string, string> = {};
  _connecting = false;
  readonly stream = {
    cork: () => {
      this.#corked = true;
    },
    uncork: () => {
      this.#corked = false;
      this.#send();
    },
    // pg's Client destroys the stream when it ends with a query in flight
    destroy: () => this.end(),
  };

  readonly #pglite: PGlite;
  readonly #onNotification: NotificationHandler;
  readonly #answers = new EventEmitter();
  #pending: Uint8Array[] = [];
  #corked = false;
  #queue: Promise<unknown>;
  #emitMessage = false;

  constructor(pglite: PGlite, onNotification: NotificationHandler) {
    super();
    this.#pglite = pglite;
    this.#onNotification = onNotification;
    this.#queue = pglite.waitReady;
    void parse(this.#answers as unknown as NodeJS.ReadableStream, (message) => this.#receive(message));
    this.on('newListener', (event) => {
      if (event === 'message') this.#emitMessage = true;
    });
  }

  #receive(message: BackendMessage): void {
    if (message.name === 'notification') {
      const { channel, payload } = message as NotificationResponseMessage;
      // after the statement's own answer is handled, as on a socket
      queueMicrotask(() => this.#onNotification(channel, payload));
    }
    if (this.#emitMessage) this.emit('message', message);
    this.emit(message.name === 'error' ? 'errorMessage' : message.name, message);
  }

  #write(message: Uint8Array): void {
    this.#pending.push(message);
    if (!this.#corked) this.#send();
  }

  /** The messages written so far, as one input to the engine, after the inputs before them. */
  #send(): void {
    if (this.#pending.length === 0) return;
    const input = this.#pending.length === 1 ? this.#pending[0]! : Buffer.concat(this.#pending);
    this.#pending = [];
    this.#queue = this.#queue
      .then(async () => {
        // Each chunk is a view of the engine's memory, which its next write reuses: copied here,
        // and read as one once the engine has answered the whole input (a long answer comes in
        // many chunks, which the parser would otherwise merge as they come).
        const chunks: Buffer[] = [];
        await this.#pglite.execProtocolRawStream(input, { onRawData: (chunk) => chunks.push(Buffer.from(chunk)) });
        if (chunks.length > 0) this.#answers.emit('data', chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
      })
      .catch((error: unknown) => {
        this.emit('error', error);
      });
  }

  async connect(): Promise<void> {
    this._connecting = true;
    await this.#pglite.waitReady;
    // PGlite's session is open already: no startup, no authentication
    process.nextTick(() => this.emit('readyForQuery'));
  }

  requestSsl(): void {}
  startup(): void {}
  cancel(): void {}
  password(): void {}
  ref(): void {}
  unref(): void {}

  query(text: string): void {
    this.#write(serialize.query(text));
  }
  parse(query: Parameters<typeof serialize.parse>[0]): void {
    this.#write(serialize.parse(query));
  }
  bind(config: Parameters<typeof serialize.bind>[0]): void {
    this.#write(serialize.bind(config));
  }
  execute(config: Parameters<typeof serialize.execute>[0]): void {
    this.#write(serialize.execute(config));
  }
  describe(message: Parameters<typeof serialize.describe>[0]): void {
    this.#write(serialize.describe(message));
  }
  close(message: Parameters<typeof serialize.close>[0]): void {
    this.#write(serialize.close(message));
  }
  flush(): void {
    this.#write(serialize.flush());
  }
  sync(): void {
    this.#write(serialize.sync());
  }
  sendCopyFromChunk(chunk: Buffer): void {
    this.#write(serialize.copyData(chunk));
  }
  endCopyFrom(): void {
    this.#write(serialize.copyDone());
  }
  sendCopyFail(message: string): void {
    this.#write(serialize.copyFail(message));
  }

  /**
   * Like a socket closing: pg waits for `end`. The engine's session is shared and stays open; the
   * pool's next client takes this connection over, so the ended client's listeners are dropped.
   */
  end(): void {
    this.#queue = this.#queue.then(() => this.emit('end'));
    for (const event of this.eventNames()) if (event !== 'newListener') this.removeAllListeners(event);
    this.#emitMessage = false;
  }
}

/** pg's client settings for PGlite's one session: every client of the pool reuses the one connection. */
export function pgliteClientConfig(pglite: PGlite, onNotification: NotificationHandler) {
  return { connection: new PgliteConnection(pglite, onNotification) };
}
