import { readBlobIndex, openExtract, describeBlob, type BlobIndex } from './blob-index.js';
import { unpackBlob } from './blob.js';
import { asExtractError } from './extract-error.js';
import { assertSupported, decodeHeaderBlock } from './header-block.js';
import type { ExtractHeader } from './types.js';

/** Reads and decodes the OSMHeader block (always the first); rejects files needing unsupported features. */
export async function loadHeader(index: BlobIndex): Promise<ExtractHeader> {
  const blob = index.blobs[0];
  const where = describeBlob(index.path, blob);
  const handle = await openExtract(index.path);
  let header: ExtractHeader;
  try {
    const data = Buffer.alloc(blob.dataSize);
    await handle.read(data, 0, blob.dataSize, blob.dataOffset);
    header = decodeHeaderBlock(unpackBlob(data, where));
  } catch (err) {
    throw asExtractError(err, where);
  } finally {
    await handle.close();
  }
  assertSupported(header, index.path);
  return header;
}

/** The extract's header (features, writing program, replication state, bbox), reading only the first block. */
export async function readHeader(path: string): Promise<ExtractHeader> {
  return loadHeader(await readBlobIndex(path, 1));
}
