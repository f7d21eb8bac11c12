// Errors that say the disk, a database file or the PostgreSQL server cannot take a write now, rather than a
// fault in the code: an operator can mend them (make room, lift a lock, start PostgreSQL), and the same
// request then succeeds. The server answers
// them 503 with Retry-After; the importer gives them an exit code and message of their own.

/** Error codes of a full disk or quota: better-sqlite3's SqliteError.code and Node's system errors. */
const FULL = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);

/**
 * PostgreSQL out of reach: the connection refused, lost or timed out (system errors), SQLSTATE class 08
 * (connection exception), 57P01-57P03 (shut down, crashed, starting) and 53300 (too many connections).
 * `pg` gives a connection lost mid-query and a connection timeout no code, only these messages.
 */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', '57P01', '57P02', '57P03', '53300']);
const UNREACHABLE_MESSAGE = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

function postgresUnreachable(error: unknown): boolean {
  const code = errorCode(error);
  if (code !== null) return UNREACHABLE.has(code) || /^08[0-9A-Z]{3}$/.test(code);
  const { message, errors } = (error ?? {}) as { message?: unknown; errors?: unknown };
  if (Array.isArray(errors) && errors.length > 0) return errors.every(postgresUnreachable); // a name with several addresses
  return typeof message === 'string' && UNREACHABLE_MESSAGE.test(message);
}

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
  if (postgresUnreachable(error)) return 'the PostgreSQL database cannot be reached';
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
