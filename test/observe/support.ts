// Shared by the metrics and access-log tests: the real app (test/support/server.ts, in process unless
// told or threaded) over a real import of Liechtenstein, every access-log batch it writes kept (and
// awaited: flushed()), and a reader of the Prometheus text format.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { App } from '../../src/app.js';
import { importedCopy, tempDir } from '../support/extracts.js';
import { serve, type Reach } from '../support/server.js';

/** Near Vaduz: where the person asking stands; must never reach the log. */
export const HERE = { lat: '47.14101', lon: '9.52153' };

let imported: Promise<{ db: string; remove(): void }> | null = null;

/** A copy of the cached Liechtenstein import per test file (the tests never write to it; each gets its own overlay). */
export function liechtenstein(): Promise<{ db: string; remove(): void }> {
  imported ??= (async () => {
    const dir = tempDir();
    const db = join(dir.path, 'toilets.db');
    await importedCopy('liechtenstein', db);
    return { db, remove: dir.remove };
  })();
  return imported;
}

export interface Observed {
  app: App;
  port: number;
  origin: string;
  /** Every access-log batch written so far, joined. */
  logText(): string;
  /** The access-log lines written so far, parsed. */
  lines(): Record<string, unknown>[];
  /** Resolves at the first batch the access log writes (or at once) after which `holds(lines())` is true. */
  flushed(holds: (lines: Record<string, unknown>[]) => boolean): Promise<void>;
  /** Closes the app (which writes the access log's last batch); once, however often called. */
  close(): Promise<void>;
}

/** Runs `use` against a server with `env` over the import (one thread unless `env` says), then closes it. */
export async function observing(env: Record<string, string>, use: (s: Observed) => Promise<void>, now?: () => number, reach?: Reach): Promise<void> {
  const { db } = await liechtenstein();
  const overlay = tempDir();
  let text = '';
  const waiting: (() => void)[] = [];
  const lines = () => text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
  const accessLines = (batch: string) => {
    text += batch;
    for (const check of [...waiting]) check();
  };
  const served = await serve({ db, overlayDb: join(overlay.path, 'overlay.db'), env, now: now ?? null, accessLines, reach });
  let closing: Promise<void> | null = null;
  const close = () => (closing ??= served.close());
  const flushed = (holds: (lines: Record<string, unknown>[]) => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!holds(lines())) return;
        waiting.splice(waiting.indexOf(check), 1);
        resolve();
      };
      waiting.push(check);
      check();
    });
  try {
    await use({ app: served.app, port: served.port, origin: served.origin, logText: () => text, lines, flushed, close });
  } finally {
    await close();
    overlay.remove();
  }
}

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * Reads the Prometheus text exposition format (0.0.4) strictly enough to catch a broken one: every
 * sample belongs to a metric announced by # TYPE, its labels are quoted and escaped, its value a number.
 */
export function parseMetrics(text: string): { samples: Sample[]; types: Map<string, string> } {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const comment = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
    if (comment) {
      if (comment[1] === 'TYPE') types.set(comment[2], comment[3]);
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(sample, `not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    const labelText = sample[2] ?? '';
    const label = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/g;
    let consumed = 0;
    for (let match = label.exec(labelText); match !== null; match = label.exec(labelText)) {
      assert.equal(match.index, consumed, `malformed labels in ${line}`);
      labels[match[1]] = match[2].replace(/\\(.)/g, (_all, c: string) => (c === 'n' ? '\n' : c));
      consumed = label.lastIndex;
    }
    assert.equal(consumed, labelText.length, `malformed labels in ${line}`);
    // Prometheus reads values as Go's ParseFloat does: NaN and Inf in any case (prom-client writes "Nan" for
    // a gauge without samples yet, such as the event loop lag just after start)
    const special = /^([+-]?)(inf|nan)$/i.exec(sample[3]);
    const value = special ? (special[2].toLowerCase() === 'nan' ? Number.NaN : special[1] === '-' ? -Infinity : Infinity) : Number(sample[3]);
    assert.ok(special !== null || !Number.isNaN(value), `not a number in ${line}`);
    const family = sample[1].replace(/_(bucket|sum|count)$/, '');
    assert.ok(types.has(sample[1]) || types.has(family), `${sample[1]} has no # TYPE`);
    samples.push({ name: sample[1], labels, value });
  }
  return { samples, types };
}

/** The value of the one sample of `name` whose labels include `labels`; 0 when there is none. */
export function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  assert.ok(found.length <= 1, `several samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value ?? 0;
}

export async function scrape(origin: string, headers: Record<string, string> = {}): Promise<{ samples: Sample[]; types: Map<string, string> }> {
  const response = await fetch(`${origin}/metrics`, { headers });
  assert.equal(response.status, 200, await response.clone().text());
  assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return parseMetrics(await response.text());
}
