// The replica's two connections to the cluster's Redis (or Valkey): one for commands, one subscribed to a
// channel (a subscribed connection takes no other command). ioredis reconnects on its own; this follows
// whether both work and says so once per change: one log line when Redis goes away (however many
// reconnection attempts fail meanwhile), one when it is back, and the state for /status. Commands fail at
// once while Redis is away (no offline queue) and after a timeout on a connection that stays open (a
// Redis that hangs), which counts as unreachable until a command succeeds again.
import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import { redisHost } from './config.js';
import type { Logger } from '../log.js';

/** connecting: never reached yet; connected: commands and the subscription work; unreachable: not now. */
export type RedisState = 'connecting' | 'connected' | 'unreachable';

export interface RedisLinkStatus {
  /** Host and port only: never the URL's user or password. */
  host: string;
  state: RedisState;
  /** When the state last changed (ISO 8601). */
  since: string;
  /** Why Redis could not be reached or a command failed, the last time; null once it works again. */
  last_error: string | null;
}

/**
 * A command that gets no answer for this long fails (Redis stopped or cut off without a reset). Long
 * enough for a busy Redis on a loaded machine: 1 s timed out the bench's reconciliations at a load of 14.
 */
const COMMAND_TIMEOUT_MS = 5000;
const CONNECT_TIMEOUT_MS = 2000;
/** Reconnection attempts: 200 ms, 400 ms, … then every 2 s. */
const retryDelay = (attempt: number): number => Math.min(200 * attempt, 2000);

export interface RedisLinkOptions {
  url: string;
  /** The subscribed connection's channel, and what to do with each message on it. */
  channel: string;
  onMessage(message: Buffer): void;
  /** What the connections are for, in the log lines ("the rate limits …"). */
  purpose: { alone: string; together: string };
  log: Logger;
  now: () => number;
}

/** Emits 'state' (RedisState) on every change, and 'failed' (the error's redacted text) on every failure. */
export class RedisLink extends EventEmitter {
  readonly commands: Redis;
  private readonly subscriber: Redis;
  private readonly host: string;
  private state: RedisState = 'connecting';
  private since: number;
  private lastError: string | null = null;
  private commandsReady = false;
  private subscribed = false;
  /** The last command failed (e.g. timed out) though the connections are open: not counted as connected. */
  private failing = false;
  private closed = false;

  constructor(private readonly options: RedisLinkOptions) {
    super();
    this.host = redisHost(options.url);
    this.since = options.now();
    const settings = {
      lazyConnect: true,
      enableOfflineQueue: false,
      autoResubscribe: false, // subscribe() below, on every ready: the state turns connected once Redis confirmed it
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: CONNECT_TIMEOUT_MS,
      maxRetriesPerRequest: 0,
      retryStrategy: retryDelay,
    };
    this.commands = new Redis(options.url, { ...settings, connectionName: 'toilet-finder' });
    this.subscriber = new Redis(options.url, { ...settings, connectionName: 'toilet-finder-subscriber' });
    this.commands.on('ready', () => this.update(() => (this.commandsReady = true)));
    this.subscriber.on('ready', () => this.subscribe());
    this.subscriber.on('messageBuffer', (_channel: Buffer, message: Buffer) => options.onMessage(message));
    for (const connection of [this.commands, this.subscriber]) {
      connection.on('error', (error: Error) => this.failed(error));
      connection.on('close', () =>
        this.update(() => {
          this.lastError ??= 'the connection to Redis closed';
          if (connection === this.commands) this.commandsReady = false;
          else this.subscribed = false;
        }),
      );
    }
  }

  /** Starts connecting; the state says how it goes. */
  connect(): void {
    for (const connection of [this.commands, this.subscriber]) connection.connect().catch((error: Error) => this.failed(error));
  }

  /** Records why a connection failed (shown in /status; logged with the change of state). */
  failed(error: Error): void {
    this.lastError = this.redacted(error.message);
    this.update(() => {});
    this.emit('failed', this.lastError);
  }

  /** A command failed on open connections: not connected until one succeeds. */
  commandFailed(error: Error): void {
    this.failing = true;
    this.failed(error);
  }

  /** A command succeeded: connected again if it failed before. */
  commandSucceeded(): void {
    if (this.failing) this.update(() => (this.failing = false));
  }

  /** Both connections are open (commands may be tried), whether or not the last command failed. */
  get open(): boolean {
    return this.commandsReady && this.subscribed;
  }

  status(): RedisLinkStatus {
    return { host: this.host, state: this.state, since: new Date(this.since).toISOString(), last_error: this.lastError };
  }

  get connected(): boolean {
    return this.state === 'connected';
  }

  close(): void {
    this.closed = true;
    this.commands.disconnect();
    this.subscriber.disconnect();
  }

  private subscribe(): void {
    this.subscriber.subscribe(this.options.channel).then(
      () => this.update(() => (this.subscribed = true)),
      (error: Error) => this.failed(error),
    );
  }

  /** Applies `change` to the connections' flags and, when that changes the state, logs it once and emits it. */
  private update(change: () => void): void {
    change();
    if (this.closed) return;
    const next: RedisState = this.open && !this.failing ? 'connected' : this.state === 'connecting' && this.lastError === null ? 'connecting' : 'unreachable';
    if (next === this.state) return;
    const first = this.state === 'connecting';
    this.state = next;
    this.since = this.options.now();
    const { log, purpose } = this.options;
    if (next === 'connected') {
      this.lastError = null;
      log.info(first ? `Redis answers: ${purpose.together}` : `Redis answers again: ${purpose.together}`, { redis: this.host });
    } else {
      log.error(`Redis cannot be reached: ${purpose.alone} until it answers again (retrying every few seconds)`, { redis: this.host, error: this.lastError });
    }
    this.emit('state', next);
  }

  /** An error's text without the URL's user or password (Redis and ioredis do not echo them; this makes sure). */
  private redacted(message: string): string {
    const url = new URL(this.options.url);
    const secrets = new Set([url.password, url.username, decodeURIComponent(url.password), decodeURIComponent(url.username)]);
    let text = message;
    for (const secret of secrets) if (secret.length >= 3) text = text.split(secret).join('***');
    return text;
  }
}
