// Output streams for commands run in the test's own process (their main(argv, io)): each keeps what is
// written to it, so a test reads a command's output once it returns.
import { Writable } from 'node:stream';

/** A stream that keeps what is written to it, in `text`; a terminal `columns` wide when given. */
export function keptStream(columns?: number): Writable & { text: string; isTTY?: boolean; columns?: number } {
  const stream = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        stream.text += String(chunk);
        done();
      },
    }),
    { text: '' },
    columns === undefined ? {} : { isTTY: true, columns },
  );
  return stream;
}
