import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync, gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { PbfWriter } from 'pbf';
import { frameBlob, packBlob } from '../../importer/pbf/blob.js';
import { ExtractError, PbfExtractWriter, readHeader, type ExtractErrorCode } from '../../importer/pbf/index.js';
import { osmExtract } from '../support/paths.js';
import { scan, temporaryDirectory, writeSampleExtract } from './fixtures.js';

const temp = temporaryDirectory();
after(temp.remove);
const file = (name: string) => join(temp.dir, name);
const sample = file('sample.osm.pbf');

/** The sample extract with one more data block, framed as given. */
function withExtraBlock(name: string, blob: Uint8Array): string {
  writeFileSync(file(name), Buffer.concat([readFileSync(sample), frameBlob('OSMData', blob)]));
  return file(name);
}

/** A Blob message holding `bytes` in field `field` (3 zlib, 4 lzma, 7 zstd) with raw_size 1000. */
function blobWith(field: number, bytes: Uint8Array): Uint8Array {
  const writer = new PbfWriter();
  writer.writeVarintField(2, 1000);
  writer.writeBytesField(field, bytes);
  return writer.finish();
}

function rejectsWith(promise: Promise<unknown>, code: ExtractErrorCode, message: RegExp): Promise<void> {
  return assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof ExtractError, `expected an ExtractError, got ${String(err)}`);
    assert.equal(err.code, code);
    assert.match(err.message, message);
    assert.doesNotMatch(err.message, /\n/);
    return true;
  });
}

before(() => writeSampleExtract(sample));

describe('ExtractError codes', () => {
  it('not_found: a missing file', async () => {
    const missing = file('missing.osm.pbf');
    await rejectsWith(readHeader(missing), 'not_found', /missing\.osm\.pbf not found/);
    await rejectsWith(scan(missing, {}), 'not_found', /missing\.osm\.pbf not found/);
  });

  it('not_pbf: an empty file, a text file, gzipped XML, a tiny file, a directory', async () => {
    writeFileSync(file('empty.osm.pbf'), '');
    writeFileSync(file('text.osm.pbf'), 'This is not an OpenStreetMap extract.\n'.repeat(20));
    writeFileSync(file('xml.osm.gz'), gzipSync('<?xml version="1.0"?><osm version="0.6"><node id="1" lat="0" lon="0"/></osm>'));
    writeFileSync(file('tiny.osm.pbf'), 'ab');
    mkdirSync(file('folder.osm.pbf'));
    await rejectsWith(scan(file('empty.osm.pbf'), {}), 'not_pbf', /empty\.osm\.pbf is empty/);
    await rejectsWith(scan(file('text.osm.pbf'), {}), 'not_pbf', /text\.osm\.pbf is not an OSM PBF extract/);
    await rejectsWith(readHeader(file('xml.osm.gz')), 'not_pbf', /xml\.osm\.gz is not an OSM PBF extract/);
    await rejectsWith(readHeader(file('tiny.osm.pbf')), 'not_pbf', /tiny\.osm\.pbf is not an OSM PBF extract/);
    await rejectsWith(readHeader(file('folder.osm.pbf')), 'not_pbf', /folder\.osm\.pbf is a directory/);
  });

  it('truncated: a real extract cut in the middle of a block', async () => {
    const cut = file('monaco-cut.osm.pbf');
    copyFileSync(osmExtract('monaco'), cut);
    truncateSync(cut, 200_000);
    await rejectsWith(scan(cut, {}), 'truncated', /monaco-cut\.osm\.pbf ends in the middle of the block at byte \d+ .*truncated/);
    assert.equal((await readHeader(cut)).replicationSequenceNumber, 2677); // the header block itself is whole
  });

  it('corrupt: undecompressable data and undecodable blocks, with decoder threads too', async () => {
    const badZlib = withExtraBlock('bad-zlib.osm.pbf', blobWith(3, Uint8Array.from({ length: 64 }, (_, i) => (i * 37) & 0xff)));
    const badBlock = withExtraBlock('bad-block.osm.pbf', packBlob(Uint8Array.from({ length: 64 }, () => 0xff), true));
    for (const threads of [0, 2]) {
      await rejectsWith(scan(badZlib, {}, { threads }), 'corrupt', /bad-zlib\.osm\.pbf: block at byte \d+ cannot be decompressed/);
      await rejectsWith(scan(badBlock, {}, { threads }), 'corrupt', /bad-block\.osm\.pbf: block at byte \d+ is damaged/);
    }
  });

  it('corrupt: a block that decompresses to another size than it claims', async () => {
    const lying = withExtraBlock('bad-size.osm.pbf', blobWith(3, deflateSync(Buffer.alloc(10))));
    await rejectsWith(scan(lying, {}), 'corrupt', /bad-size\.osm\.pbf: block at byte \d+ decompresses to 10 bytes instead of 1000/);
  });

  it('unsupported: history files and lzma or zstd blocks, naming what is missing', async () => {
    const history = file('history.osm.pbf');
    const writer = new PbfExtractWriter(history, { requiredFeatures: ['OsmSchema-V0.6', 'DenseNodes', 'HistoricalInformation'] });
    writer.addNode({ id: 1, lat: 0, lon: 0 });
    await writer.close();
    await rejectsWith(readHeader(history), 'unsupported', /history\.osm\.pbf requires unsupported PBF feature "HistoricalInformation"/);
    await rejectsWith(scan(history, {}), 'unsupported', /"HistoricalInformation"/);
    const lzma = withExtraBlock('lzma.osm.pbf', blobWith(4, Uint8Array.of(1, 2, 3)));
    const zstd = withExtraBlock('zstd.osm.pbf', blobWith(7, Uint8Array.of(1, 2, 3)));
    await rejectsWith(scan(lzma, {}, { threads: 2 }), 'unsupported', /lzma\.osm\.pbf: block at byte \d+ is lzma-compressed/);
    await rejectsWith(scan(zstd, {}), 'unsupported', /zstd\.osm\.pbf: block at byte \d+ is zstd-compressed/);
  });

  it('answers damaged files with a result or an ExtractError, never another error or a hang', async () => {
    const raw = file('raw.osm.pbf');
    await writeSampleExtract(raw, { compress: false }); // uncompressed, so damage reaches the protobuf decoding
    const original = readFileSync(raw);
    const damaged = file('damaged.osm.pbf');
    let seed = 7;
    const random = (below: number) => Math.floor(((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * below);
    const outcomes = new Set<string>();
    for (let attempt = 0; attempt < 400; attempt++) {
      const bytes = Buffer.from(original);
      for (let flips = 1 + random(3); flips > 0; flips--) bytes[random(bytes.length)] = random(256);
      writeFileSync(damaged, bytes);
      try {
        await scan(damaged, { amenity: '*' });
        outcomes.add('result');
      } catch (err) {
        assert.ok(err instanceof ExtractError, `attempt ${attempt}: ${String(err)}`);
        outcomes.add(err.code);
      }
    }
    assert.ok(outcomes.has('result') && outcomes.has('corrupt'), [...outcomes].join());
  });

  it('stops every decoder thread and closes every file when a scan fails', { skip: !existsSync('/proc/self/task'), timeout: 120_000 }, async () => {
    const threads = () => readdirSync('/proc/self/task').length;
    const files = () => readdirSync('/proc/self/fd').length;
    await scan(sample, {}, { threads: 4 }); // starts whatever pools node keeps
    // A scan settles once its decoders have closed their files; their threads exit just after: let them go.
    let before = { threads: threads(), files: files() };
    for (let steady = 0, wait = 0; steady < 10 && wait < 100; wait++) {
      await sleep(50);
      const now = { threads: threads(), files: files() };
      steady = now.threads === before.threads && now.files === before.files ? steady + 1 : 0;
      before = now;
    }
    const broken = withExtraBlock('broken.osm.pbf', packBlob(Uint8Array.of(0xff, 0xff), true));
    await rejectsWith(scan(broken, {}, { threads: 4 }), 'corrupt', /broken\.osm\.pbf/);
    await rejectsWith(scan(broken, {}, { threads: 0 }), 'corrupt', /broken\.osm\.pbf/);
    // Threads and descriptors are released by the OS shortly after the promise settles (later on a loaded
    // machine): the check waits for every one; one that stays open fails the test at its timeout.
    while (threads() !== before.threads || files() !== before.files) await sleep(50);
  });
});
