export type ExtractErrorCode = 'not_found' | 'not_pbf' | 'truncated' | 'corrupt' | 'unsupported';

/** A problem with the extract file itself; the message is one line, names the file and says what to do. */
export class ExtractError extends Error {
  override readonly name = 'ExtractError';

  constructor(
    readonly code: ExtractErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Wraps an unexpected decoding failure of the block at `where` as a 'corrupt' ExtractError. */
export function asExtractError(err: unknown, where: string): ExtractError {
  if (err instanceof ExtractError) return err;
  const reason = err instanceof Error ? err.message : String(err);
  return new ExtractError('corrupt', `${where} is damaged (${reason}); download the file again`);
}
