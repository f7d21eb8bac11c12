// Structured log lines (one JSON object per line on stdout/stderr), readable by journald and log shippers.

export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export function jsonLogger(out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Logger {
  const line = (level: string, message: string, fields?: Record<string, unknown>) =>
    `${JSON.stringify({ time: new Date().toISOString(), level, message, ...fields })}\n`;
  return {
    info: (message, fields) => out.write(line('info', message, fields)),
    error: (message, fields) => err.write(line('error', message, fields)),
  };
}
