// Structured log lines (one JSON object per line on stdout/stderr), readable by journald and log shippers.

export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/**
 * A stream that fails (its reader went away: EPIPE) is not written to again, and the failure is said once on
 * the other stream. Unheard, the stream's error would end the process: a log pipe that closes must cost log
 * lines, not the service (its next line, say a reload after the nightly import, or the one that starts a
 * graceful shutdown).
 */
export function jsonLogger(out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Logger {
  const line = (level: string, message: string, fields?: Record<string, unknown>) =>
    `${JSON.stringify({ time: new Date().toISOString(), level, message, ...fields })}\n`;
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
  return {
    info: (message, fields) => write(out, line('info', message, fields)),
    error: (message, fields) => write(err, line('error', message, fields)),
  };
}
