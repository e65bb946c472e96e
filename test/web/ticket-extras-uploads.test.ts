import { describe, expect, it } from 'vitest';
import { readMultipart, UnreadableUpload } from '../../src/web/uploads.ts';
import { multipartBody } from '../tickets/extras-support.ts';

// The upload reader holds at most the per-file limit of any file, however the body is cut into
// chunks on the way, and names the first file over it.

async function* inChunks(body: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let at = 0; at < body.byteLength; at += size) yield body.subarray(at, at + size);
}

const files = [
  { name: 'a "quoted" name.txt', type: 'text/plain', content: Buffer.from('one\r\n--not a delimiter\r\n') },
  { name: 'b.bin', type: 'application/octet-stream', content: Buffer.from([13, 10, 45, 45, 0, 255]) },
];

describe('a multipart body is read the same whatever chunks it comes in', () => {
  for (const size of [1, 3, 7, 64, 100_000]) {
    it(`reads fields and files from chunks of ${size} bytes`, async () => {
      const { boundary, body } = multipartBody({ csrf: 'token', note: 'ünïcode' }, files);
      const read = await readMultipart(inChunks(body, size), boundary, { fileBytes: 1024, maxFiles: 5 });
      expect(read.fields).toEqual({ csrf: 'token', note: 'ünïcode' });
      expect(read.files.map((f) => [f.name, f.contentType, f.content.toString('hex')])).toEqual(
        files.map((f) => [f.name, f.type, f.content.toString('hex')]),
      );
      expect([read.tooLarge, read.tooMany]).toEqual([null, false]);
    });
  }
});

describe('a file over the limit is read through and dropped, and named', () => {
  it('keeps the fields after it and names the first file too large', async () => {
    const big = { name: 'big.bin', type: 'application/octet-stream', content: Buffer.alloc(2000, 1) };
    const { boundary, body } = multipartBody({ csrf: 'token' }, [big, files[1]!]);
    const read = await readMultipart(inChunks(body, 256), boundary, { fileBytes: 1000, maxFiles: 5 });
    expect(read.tooLarge).toBe('big.bin');
    expect(read.files.map((f) => f.name)).toEqual(['b.bin']);
    expect(read.fields.csrf).toBe('token');
  });

  it('cuts off a body longer than every file at its limit could make', async () => {
    const { boundary, body } = multipartBody({}, [{ name: 'huge.bin', type: 'application/octet-stream', content: Buffer.alloc(200_000) }]);
    await expect(readMultipart(inChunks(body, 4096), boundary, { fileBytes: 1000, maxFiles: 2 })).rejects.toBeInstanceOf(UnreadableUpload);
  });

  it('refuses a body that ends before its last delimiter', async () => {
    const { boundary, body } = multipartBody({ csrf: 'token' }, files);
    await expect(
      readMultipart(inChunks(body.subarray(0, body.byteLength - 10), 50), boundary, { fileBytes: 1000, maxFiles: 5 }),
    ).rejects.toBeInstanceOf(UnreadableUpload);
  });
});
