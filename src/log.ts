// Structured log lines (one JSON object per line on stdout/stderr), readable by journald and log shippers.
// Errors go to stderr, everything else (information, warnings, the access log) to stdout. LOG_LEVEL sets
// the least level written.

export const LOG_LEVELS = ['info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** The service's own logger: also warnings, and whole lines made elsewhere (the access log's batches). */
export interface JsonLogger extends Logger {
  warn(message: string, fields?: Record<string, unknown>): void;
  /** Writes lines already formatted (each a JSON object ending in a newline) to stdout. */
  lines(text: string): void;
}

/**
 * A stream that fails (its reader went away: EPIPE) is not written to again, and the failure is said once on
 * the other stream. Unheard, the stream's error would end the process: a log pipe that closes must cost log
 * lines, not the service (its next line, say a reload after the nightly import, or the one that starts a
 * graceful shutdown).
 */
export function jsonLogger(out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr, level: LogLevel = 'info'): JsonLogger {
  const line = (lineLevel: string, message: string, fields?: Record<string, unknown>) =>
    `${JSON.stringify({ time: new Date().toISOString(), level: lineLevel, message, ...fields })}\n`;
  const failed = new Set<NodeJS.WritableStream>();
  const write = (stream: NodeJS.WritableStream, text: string) => {
    if (!failed.has(stream)) stream.write(text);
  };
  const watch = (stream: NodeJS.WritableStream, other: NodeJS.WritableStream) =>
    stream.on('error', (error: Error) => {
      if (failed.has(stream)) return;
      failed.add(stream);
      const name = stream === process.stdout ? 'stdout' : stream === process.stderr ? 'stderr' : 'its stream';
      write(other, line('error', `writing the log to ${name} failed; its further lines are dropped`, { error: error.message }));
    });
  watch(out, err);
  if (err !== out) watch(err, out);
  const least = LOG_LEVELS.indexOf(level);
  const at = (lineLevel: LogLevel, stream: NodeJS.WritableStream) =>
    LOG_LEVELS.indexOf(lineLevel) < least ? () => {} : (message: string, fields?: Record<string, unknown>) => write(stream, line(lineLevel, message, fields));
  return {
    info: at('info', out),
    warn: at('warn', out),
    error: at('error', err),
    lines: (text) => write(out, text),
  };
}
