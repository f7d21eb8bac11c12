import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WriteBack } from '../../importer/write-back.js';

test('flushes started while the file grows, then the rest: the file is whole and the descriptor closed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'write-back-'));
  try {
    const path = join(dir, 'db');
    writeFileSync(path, 'a'.repeat(1 << 20));
    const writeBack = new WriteBack(path);
    writeBack.start();
    appendFileSync(path, 'b'.repeat(1 << 20));
    writeBack.start(); // queued behind the first
    await writeBack.finish();
    await writeBack.close();
    assert.equal(readFileSync(path, 'latin1').length, 2 << 20);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a write error fails finish, so the import stops before the rename', async () => {
  // fsync on a character device fails (EINVAL) every time: a stand-in for a disk that cannot write.
  const writeBack = new WriteBack('/dev/full');
  writeBack.start();
  await assert.rejects(writeBack.finish(), { code: 'EINVAL' });
  await writeBack.close();
});
