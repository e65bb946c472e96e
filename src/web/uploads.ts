/** A file of a multipart form, read whole: at most the limit it was read with. */
export interface UploadedFile {
  field: string;
  name: string;
  contentType: string;
  content: Buffer;
}

export interface ReadForm {
  /** The form's text fields (the CSRF token among them). */
  fields: Record<string, string>;
  files: UploadedFile[];
  /** The name of the first file over the limit: its bytes, and those of any file after it, were read and dropped. */
  tooLarge: string | null;
  /** More files than `maxFiles`: the rest were dropped. */
  tooMany: boolean;
}

export interface UploadLimits {
  /** The most one file may hold, in bytes. */
  fileBytes: number;
  maxFiles: number;
}

/** Text fields together: a CSRF token and a few words, far below this. */
const FIELD_BYTES = 64 * 1024;
const HEADER_BYTES = 16 * 1024;

/** A form that could not be read as multipart/form-data, or one far beyond what an upload may send: the connection is closed. */
export class UnreadableUpload extends Error {}

export function multipartBoundary(contentType: string | undefined): string | null {
  if (!contentType || !/^multipart\/form-data\b/i.test(contentType)) return null;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

interface PartHead {
  field: string;
  filename: string | null;
  contentType: string;
}

/** Content-Disposition and Content-Type of a part; names as browsers write them (`"` as %22, line ends as %0D %0A). */
function partHead(text: string): PartHead {
  let field = '';
  let filename: string | null = null;
  let contentType = 'application/octet-stream';
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-type') contentType = value;
    if (name !== 'content-disposition') continue;
    for (const match of value.matchAll(/;\s*([\w*-]+)="((?:[^"\\]|\\.)*)"/g)) {
      const unquoted = (match[2] ?? '').replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n');
      if (match[1]?.toLowerCase() === 'name') field = unquoted;
      if (match[1]?.toLowerCase() === 'filename') filename = unquoted;
    }
  }
  return { field, filename, contentType };
}

/**
 * Reads a multipart/form-data body as it streams in, holding at most `fileBytes` of any one file:
 * a file over it is read to its end and dropped (so the answer can still say which), and a body
 * longer than every file at its limit could make is cut off. Browsers send a part with an empty
 * name for a file input left empty: it is skipped.
 */
export async function readMultipart(body: AsyncIterable<Buffer>, boundary: string, limits: UploadLimits): Promise<ReadForm> {
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const most = (limits.maxFiles + 1) * (limits.fileBytes + HEADER_BYTES) + FIELD_BYTES;
  const form: ReadForm = { fields: {}, files: [], tooLarge: null, tooMany: false };
  let fieldBytes = 0;
  let total = 0;
  // the body read as if it began with a line end, so that its first delimiter is found like the others
  let pending: Buffer = Buffer.from('\r\n');
  let state: 'preamble' | 'after-delimiter' | 'head' | 'data' | 'done' = 'preamble';
  let head: PartHead | null = null;
  let chunks: Buffer[] = [];
  let size = 0;
  let dropping = false;

  const endPart = () => {
    if (!head) return;
    const content = Buffer.concat(chunks);
    if (head.filename === null) {
      fieldBytes += content.byteLength;
      if (fieldBytes > FIELD_BYTES) throw new UnreadableUpload('the text fields are too long');
      form.fields[head.field] = content.toString('utf8');
    } else if (!dropping && head.filename !== '') {
      if (form.files.length >= limits.maxFiles) form.tooMany = true;
      else form.files.push({ field: head.field, name: head.filename, contentType: head.contentType, content });
    }
    head = null;
    chunks = [];
    size = 0;
    dropping = false;
  };

  const take = (data: Buffer) => {
    if (!head || dropping) return;
    size += data.byteLength;
    const limit = head.filename === null ? FIELD_BYTES : limits.fileBytes;
    if (size > limit) {
      if (head.filename === null) throw new UnreadableUpload('a text field is too long');
      form.tooLarge ??= head.filename;
      dropping = true;
      chunks = [];
      return;
    }
    chunks.push(data);
  };

  for await (const chunk of body) {
    total += chunk.byteLength;
    if (total > most) throw new UnreadableUpload('the body is longer than any upload may be');
    pending = pending.byteLength ? Buffer.concat([pending, chunk]) : chunk;
    let progressed = true;
    while (progressed && state !== 'done') {
      progressed = false;
      if (state === 'preamble' || state === 'data') {
        const at = pending.indexOf(delimiter);
        if (at < 0) {
          // keep what could be the start of a delimiter; the rest belongs to the part
          const keep = Math.min(pending.byteLength, delimiter.byteLength - 1);
          if (state === 'data') take(pending.subarray(0, pending.byteLength - keep));
          pending = Buffer.from(pending.subarray(pending.byteLength - keep));
          break;
        }
        if (state === 'data') {
          take(pending.subarray(0, at));
          endPart();
        }
        pending = pending.subarray(at + delimiter.byteLength);
        state = 'after-delimiter';
        progressed = true;
      } else if (state === 'after-delimiter') {
        if (pending.byteLength < 2) break;
        const next = pending.subarray(0, 2).toString('latin1');
        if (next === '--') state = 'done';
        else if (next === '\r\n') state = 'head';
        else throw new UnreadableUpload('a delimiter is followed by neither a line end nor --');
        pending = pending.subarray(2);
        progressed = true;
      } else if (state === 'head') {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) {
          if (pending.byteLength > HEADER_BYTES) throw new UnreadableUpload('a part’s headers are too long');
          break;
        }
        head = partHead(pending.subarray(0, end).toString('utf8'));
        pending = pending.subarray(end + 4);
        state = 'data';
        progressed = true;
      }
    }
  }
  if (state !== 'done') throw new UnreadableUpload('the body ends before its last delimiter');
  return form;
}
