// fileformat.proto: the Blob message that wraps every block, and its (de)compression.
import { deflateSync, inflateSync } from 'node:zlib';
import { PbfReader, PbfWriter } from 'pbf';
import { ExtractError } from './extract-error.js';

/** The format caps an uncompressed block at 32 MiB; anything larger is damage, not data. */
export const MAX_BLOCK_BYTES = 32 * 1024 * 1024;

const COMPRESSION_NAMES: Record<number, string> = { 4: 'lzma', 5: 'bzip2', 6: 'lz4', 7: 'zstd' };

/**
 * Returns the block bytes inside an encoded Blob. `where` names the file and offset for error messages.
 * Throws ExtractError 'unsupported' for compressions other than zlib, 'corrupt' for undecodable data.
 */
export function unpackBlob(blob: Uint8Array, where: string): Uint8Array {
  const reader = new PbfReader(blob);
  let raw: Uint8Array | null = null;
  let zlib: Uint8Array | null = null;
  let rawSize = -1;
  let field: number;
  while ((field = reader.nextField())) {
    if (field === 1) raw = reader.readBytes();
    else if (field === 2) rawSize = reader.readVarint();
    else if (field === 3) zlib = reader.readBytes();
    else if (COMPRESSION_NAMES[field]) {
      throw new ExtractError(
        'unsupported',
        `${where} is ${COMPRESSION_NAMES[field]}-compressed; only zlib and uncompressed blocks are supported (convert the file with "osmium cat -o out.osm.pbf")`,
      );
    }
  }
  if (reader.pos !== blob.length) throw new ExtractError('corrupt', `${where} is damaged (malformed blob); download the file again`);
  if (raw) return raw;
  if (!zlib) throw new ExtractError('corrupt', `${where} holds no data; download the file again`);
  if (rawSize > MAX_BLOCK_BYTES) throw new ExtractError('corrupt', `${where} claims ${rawSize} uncompressed bytes, over the 32 MiB limit; download the file again`);
  let inflated: Uint8Array;
  try {
    inflated = inflateSync(zlib, { maxOutputLength: rawSize >= 0 ? Math.max(rawSize, 1) : MAX_BLOCK_BYTES });
  } catch (err) {
    throw new ExtractError('corrupt', `${where} cannot be decompressed (${(err as Error).message}); download the file again`);
  }
  if (rawSize >= 0 && inflated.length !== rawSize) {
    throw new ExtractError('corrupt', `${where} decompresses to ${inflated.length} bytes instead of ${rawSize}; download the file again`);
  }
  return inflated;
}

/** Encodes block bytes as a Blob message, zlib-compressed unless `compress` is false. */
export function packBlob(block: Uint8Array, compress: boolean): Uint8Array {
  const writer = new PbfWriter(new Uint8Array(block.length + 16));
  if (compress) {
    writer.writeVarintField(2, block.length);
    writer.writeBytesField(3, deflateSync(block));
  } else {
    writer.writeBytesField(1, block);
  }
  return writer.finish();
}

/** Frames a Blob as a file block: 4-byte big-endian BlobHeader length, BlobHeader{type=1, datasize=3}, Blob. */
export function frameBlob(type: string, blob: Uint8Array): Buffer {
  const header = new PbfWriter();
  header.writeStringField(1, type);
  header.writeVarintField(3, blob.length);
  const headerBytes = header.finish();
  const prefix = Buffer.alloc(4);
  prefix.writeUInt32BE(headerBytes.length);
  return Buffer.concat([prefix, headerBytes, blob]);
}
