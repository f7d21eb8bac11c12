// Errors that say the disk, a database file or the database server cannot take a write now, rather than a
// fault in the code: an operator can mend them (make room, lift a lock, start PostgreSQL again), and the
// same request then succeeds. The server answers them 503 with Retry-After; the importer gives them an exit
// code and message of their own.

/** Error codes of a full disk or quota: better-sqlite3's SqliteError.code and Node's system errors. */
const FULL = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);

/**
 * A PostgreSQL server that cannot be reached or is going away: the socket's errors, the SQLSTATEs of class
 * 08 (connection exception) and 57P01-57P03 (shut down, crashed, cannot connect now), 53300 (too many
 * connections); the driver's own errors without a code by their message (a connection ended mid-query, the
 * pool's wait for a connection timed out).
 */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', '57P01', '57P02', '57P03', '53300']);
const UNREACHABLE_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout)/;

/** The error's code (SqliteError.code, a system error's code, a PostgreSQL SQLSTATE), or null. */
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
  if (unreachable(error)) return 'the PostgreSQL server cannot be reached';
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

/** Whether the error (or what it wraps: a cause, an AggregateError's errors) says the database server cannot be reached. */
function unreachable(error: unknown, depth = 0): boolean {
  if (error === null || typeof error !== 'object' || depth > 3) return false;
  const code = errorCode(error);
  if (code !== null && (UNREACHABLE.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  const { message, cause, errors } = error as { message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof message === 'string' && UNREACHABLE_MESSAGES.test(message)) return true;
  if (Array.isArray(errors) && errors.some((inner) => unreachable(inner, depth + 1))) return true;
  return unreachable(cause, depth + 1);
}
