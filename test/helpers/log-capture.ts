import { Writable } from 'node:stream';

/** A log stream for startTestService that keeps every JSON line the service writes. */
export function captureLogLines(): { sink: Writable; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { sink, lines };
}
