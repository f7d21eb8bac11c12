// osmformat.proto StringTable{s=1 (repeated bytes)}. Entries stay undecoded bytes: most blocks only need a
// few strings turned into JS strings (those of selected elements), and keys are matched on bytes.
import { PbfReader } from 'pbf';

export class StringTable {
  readonly count: number;
  /** Byte ranges of each entry's UTF-8 content, and of its length prefix (for PbfReader.readString). */
  private readonly prefixes: Uint32Array;
  private readonly starts: Uint32Array;
  private readonly ends: Uint32Array;
  private readonly reader: PbfReader;

  constructor(buf: Uint8Array, start: number, end: number) {
    const reader = new PbfReader(buf);
    const prefixes: number[] = [];
    const starts: number[] = [];
    const ends: number[] = [];
    reader.pos = start;
    let field: number;
    while ((field = reader.nextField(end))) {
      if (field !== 1) continue;
      prefixes.push(reader.pos);
      const length = reader.readVarint();
      starts.push(reader.pos);
      reader.pos += length;
      ends.push(reader.pos);
    }
    if (reader.pos !== end) throw new Error('malformed string table');
    this.reader = reader;
    this.count = starts.length;
    this.prefixes = Uint32Array.from(prefixes);
    this.starts = Uint32Array.from(starts);
    this.ends = Uint32Array.from(ends);
  }

  equals(index: number, bytes: Uint8Array): boolean {
    const start = this.starts[index];
    if (this.ends[index] - start !== bytes.length) return false;
    const buf = this.reader.buf;
    for (let i = 0; i < bytes.length; i++) if (buf[start + i] !== bytes[i]) return false;
    return true;
  }

  decode(index: number): string {
    this.reader.pos = this.prefixes[index];
    return this.reader.readString();
  }
}
