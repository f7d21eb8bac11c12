// Errors that say the disk or a database file cannot take a write now, rather than a fault in the code: an
// operator can mend them (make room, lift a lock), and the same request then succeeds. The server answers
// them 503 with Retry-After; the importer gives them an exit code and message of their own.

/** Error codes of a full disk or quota: better-sqlite3's SqliteError.code and Node's system errors. */
const FULL = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);

/** The error's code (SqliteError.code, a system error's code), or null. */
export function errorCode(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : null;
}

export function isDiskFull(error: unknown): boolean {
  const code = errorCode(error);
  return code !== null && FULL.has(code);
}

/** What keeps the storage from working, in a few words for a client and the log; null for other errors. */
export function storageTrouble(error: unknown): string | null {
  const code = errorCode(error);
  if (code === null) return null;
  if (FULL.has(code)) return 'the disk is full';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'the database is locked by another process';
  if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN') || code === 'EROFS' || code === 'EACCES') {
    return 'a file cannot be opened for writing';
  }
  if (code.startsWith('SQLITE_IOERR') || code === 'EIO') return 'the disk cannot be read or written';
  return null;
}
