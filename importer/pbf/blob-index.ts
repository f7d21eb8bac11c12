// fileformat.proto framing: each block is a 4-byte big-endian BlobHeader length, a BlobHeader{type=1,
// indexdata=2, datasize=3}, then `datasize` bytes of Blob. Reading only the headers gives every block's
// position without touching the data.
import { open, type FileHandle } from 'node:fs/promises';
import { PbfReader } from 'pbf';
import { ExtractError } from './extract-error.js';
import { MAX_BLOCK_BYTES } from './blob.js';

/** The format caps a BlobHeader at 64 KiB. */
const MAX_HEADER_BYTES = 64 * 1024;
/** Enough for any ordinary BlobHeader, so one read per block usually suffices. */
const HEADER_READ_AHEAD = 64;

export interface BlobRef {
  /** 'OSMHeader', 'OSMData', or a type this reader skips. */
  type: string;
  /** Byte offset of the block's length prefix. */
  start: number;
  /** Byte offset of the Blob message. */
  dataOffset: number;
  dataSize: number;
  /** Byte offset just past the Blob. */
  end: number;
}

export interface BlobIndex {
  path: string;
  size: number;
  blobs: BlobRef[];
}

/** Where a block is, for error messages. */
export function describeBlob(path: string, blob: { start: number }): string {
  return `${path}: block at byte ${blob.start}`;
}

/** Opens the file, mapping "missing" and "not a file" to ExtractErrors. */
export async function openExtract(path: string): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new ExtractError('not_found', `${path} not found; check the path to the OSM extract`);
    if (code === 'EISDIR') throw new ExtractError('not_pbf', `${path} is a directory, not an OSM PBF extract`);
    throw err;
  }
  const stats = await handle.stat();
  if (!stats.isFile()) {
    await handle.close();
    throw new ExtractError('not_pbf', `${path} is ${stats.isDirectory() ? 'a directory' : 'not a regular file'}, not an OSM PBF extract`);
  }
  return handle;
}

/**
 * Lists the blocks of the file (at most `limit` of them), validating the framing: the first block must be an
 * OSMHeader, and the file must not end inside a block.
 */
export async function readBlobIndex(path: string, limit = Infinity): Promise<BlobIndex> {
  const handle = await openExtract(path);
  try {
    const size = (await handle.stat()).size;
    if (size === 0) throw new ExtractError('not_pbf', `${path} is empty, not an OSM PBF extract`);
    const blobs: BlobRef[] = [];
    const head = Buffer.alloc(4 + HEADER_READ_AHEAD);
    let pos = 0;
    while (pos < size && blobs.length < limit) {
      const first = blobs.length === 0;
      const { bytesRead } = await handle.read(head, 0, head.length, pos);
      if (bytesRead < 4) throw first ? badFraming(path, pos, true, `only ${bytesRead} bytes`) : truncated(path, pos, size);
      const headerSize = head.readUInt32BE(0);
      if (headerSize === 0 || headerSize > MAX_HEADER_BYTES) throw badFraming(path, pos, first, `block header length ${headerSize}`);
      let header: Uint8Array = head.subarray(4, 4 + headerSize);
      if (headerSize > bytesRead - 4) {
        if (pos + 4 + headerSize > size) throw first ? badFraming(path, pos, true, 'header runs past the end') : truncated(path, pos, size);
        header = Buffer.alloc(headerSize);
        await handle.read(header, 0, headerSize, pos + 4);
      }
      const { type, dataSize } = parseBlobHeader(header, () => badFraming(path, pos, first, 'unreadable block header'));
      if (first && type !== 'OSMHeader') throw badFraming(path, pos, true, `first block is "${type}", expected "OSMHeader"`);
      if (dataSize > MAX_BLOCK_BYTES) throw badFraming(path, pos, first, `block of ${dataSize} bytes, over the 32 MiB limit`);
      const dataOffset = pos + 4 + headerSize;
      const end = dataOffset + dataSize;
      if (end > size) throw truncated(path, pos, size);
      blobs.push({ type, start: pos, dataOffset, dataSize, end });
      pos = end;
    }
    return { path, size, blobs };
  } finally {
    await handle.close();
  }
}

function parseBlobHeader(bytes: Uint8Array, invalid: () => ExtractError): { type: string; dataSize: number } {
  let type = '';
  let dataSize = -1;
  try {
    const reader = new PbfReader(bytes);
    let field: number;
    while ((field = reader.nextField())) {
      if (field === 1 && reader.type === 2) type = reader.readString();
      else if (field === 3 && reader.type === 0) dataSize = reader.readVarint();
    }
    if (reader.pos !== bytes.length) throw invalid();
  } catch {
    throw invalid();
  }
  if (type === '' || dataSize < 0) throw invalid();
  return { type, dataSize };
}

function truncated(path: string, pos: number, size: number): ExtractError {
  return new ExtractError('truncated', `${path} ends in the middle of the block at byte ${pos} (file is ${size} bytes); it is truncated, download it again`);
}

/** Garbage where the first header should be means "not a PBF"; later, it means damage. */
function badFraming(path: string, pos: number, first: boolean, what: string): ExtractError {
  return first
    ? new ExtractError('not_pbf', `${path} is not an OSM PBF extract (${what}); expected a .osm.pbf file`)
    : new ExtractError('corrupt', `${path}: block at byte ${pos} is damaged (${what}); download the file again`);
}
