// The moderator's command line (`npm run moderate`: its main() run in this process on the same databases,
// and once as the real script in a process of its own) and what a running server shows after each action: queues with context, approved submissions as community
// toilets in every answer, reports and disputes, locks, a toilet marked gone, the log, and the outbox of
// anonymous OpenStreetMap notes sent to a local fake of the OSM API.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { assertValid, Clock, deviceId, importedData, moderate, operatorCommand, startService, type Data, type Service } from './support.js';

const PAID = 'n5225387845'; // Porto: wheelchair yes, near the submission below
const OTHER = 'n3191740661';

/** A stand-in for api.openstreetmap.org: records note creations, answers like the real API. */
async function fakeOsmApi(): Promise<{ url: string; notes: { path: string; form: URLSearchParams; agent: string }[]; server: Server }> {
  const notes: { path: string; form: URLSearchParams; agent: string }[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      notes.push({ path: `${req.method} ${req.url}`, form: new URLSearchParams(body), agent: req.headers['user-agent'] ?? '' });
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ type: 'Feature', geometry: { type: 'Point', coordinates: [0, 0] }, properties: { id: 4200 + notes.length, status: 'open' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/0.6`, notes, server };
}

describe('moderation', () => {
  let data: Data;
  let clock: Clock;
  let s: Service;
  let osm: Awaited<ReturnType<typeof fakeOsmApi>>;
  let env: Record<string, string>;
  /** `npm run moderate -- <args> --json` on the test's databases; the server then polls for the change. */
  const run = async (...args: string[]) => {
    const result = await moderate(data, [...args, '--json'], env);
    await s.app.community.poll();
    return result;
  };

  before(async () => {
    data = await importedData('porto');
    osm = await fakeOsmApi();
    env = { OSM_NOTES_API: osm.url };
    clock = new Clock(Date.parse('2026-06-15T10:00:00Z'));
    s = await startService(data, clock, env);
  });
  after(async () => {
    await s.close();
    osm.server.close();
    data.remove();
  });

  test('a submission waits in the queue with the toilets listed near it; approved, it is toilet c_<n> with source community in every answer', async () => {
    const submitted = await s.post('/api/v1/submissions', { lat: 41.14575, lon: -8.61015, name: 'Kiosk da Praça', access: 'public', fee: 'free', wheelchair: 'yes', opening_hours: 'Mo-Su 08:00-20:00', note: 'behind the kiosk' });
    assert.equal(submitted.status, 201);
    const number = submitted.json.id.slice('sub_'.length);
    assert.equal((await s.get(`/api/v1/toilets/c_${number}`)).status, 404, 'not live before a moderator approves it');

    const listed = await run('list', 'submissions');
    assert.equal(listed.status, 0, listed.stderr);
    const queued = listed.json.submissions.find((q: { id: string }) => q.id === submitted.json.id);
    assert.deepEqual(
      { ...queued, nearby: queued.nearby.map((n: { id: string }) => n.id) },
      {
        id: submitted.json.id,
        submitted_at: '2026-06-15T10:00:00.000Z',
        lat: 41.14575,
        lon: -8.61015,
        name: 'Kiosk da Praça',
        access: 'public',
        fee: 'free',
        opening_hours: 'Mo-Su 08:00-20:00',
        wheelchair: 'yes',
        changing_table: null,
        note: 'behind the kiosk',
        nearby: [PAID, 'n4024980845'],
      },
    );

    const unreasoned = await run('approve', submitted.json.id);
    assert.equal(unreasoned.status, 2, 'a reason is required: a usage error');
    assert.match(unreasoned.stderr, /^moderate: approve needs --reason "TEXT"/);
    assert.equal((await run('approve', submitted.json.id, '--reason', '  ')).status, 2, 'a blank reason is none');
    const approved = await run('approve', submitted.json.id, '--reason', 'seen on street view');
    assert.equal(approved.status, 0, approved.stderr);
    assert.equal(approved.json.done, `approved ${submitted.json.id}: it is toilet c_${number}`);

    const toilet = await s.toilet(`c_${number}`);
    assert.equal(toilet.source, 'community');
    assert.deepEqual(toilet.provenance, { source: 'community', checked: null, decided: {} });
    assert.equal(toilet.name, 'Kiosk da Praça');
    assert.deepEqual([toilet.access, toilet.access_rule, toilet.fee.required, toilet.wheelchair], ['public', 'free', false, 'yes']);
    assert.equal(toilet.opening_hours, 'Mo-Su 08:00-20:00');
    assert.deepEqual([toilet.verification_state, toilet.confidence, toilet.confirmations], ['unverified', 'medium', 0]);
    const near = await s.get('/api/v1/toilets/nearest?lat=41.14575&lon=-8.61015&limit=1');
    assert.equal(near.json.results[0].id, `c_${number}`);
    const area = await s.get('/api/v1/toilets?bbox=-8.611,41.145,-8.610,41.146&wheelchair=true');
    assert.ok(area.json.results.some((t: { id: string }) => t.id === `c_${number}`));
    const rated = await s.post(`/api/v1/toilets/c_${number}/ratings`, { rating: 5, device_id: deviceId(1) });
    assert.deepEqual(rated.json.cleanliness, { average: 5, count: 1 });
    assert.equal((await run('approve', submitted.json.id, '--reason', 'again')).status, 1, 'decided already');
  });

  test('a rejected submission leaves the queue and never goes live', async () => {
    const submitted = await s.post('/api/v1/submissions', { lat: 41.15, lon: -8.6 });
    assert.equal((await run('reject', submitted.json.id, '--reason', 'a private garden')).status, 0);
    assert.ok(!(await run('list', 'submissions')).json.submissions.some((q: { id: string }) => q.id === submitted.json.id));
    assert.equal((await s.get(`/api/v1/toilets/c_${submitted.json.id.slice(4)}`)).status, 404);
  });

  test('an open report disputes the toilet; approving it closes it and sends an anonymous OSM note without the user’s text', async () => {
    const reported = await s.post(`/api/v1/toilets/${OTHER}/reports`, { kind: 'gone', note: 'my phone number is 555-0100' });
    assert.equal((await s.toilet(OTHER)).verification_state, 'disputed');
    const queue = (await run('list', 'reports')).json.reports;
    assert.deepEqual(queue.find((r: { id: string }) => r.id === reported.json.id), {
      id: reported.json.id,
      reported_at: '2026-06-15T10:00:00.000Z',
      kind: 'gone',
      note: 'my phone number is 555-0100',
      toilet_id: OTHER,
      toilet: { name: null, lat: 41.1463633, lon: -8.6165684, source: 'openstreetmap', gone: false },
      open_reports: 1,
    });
    const approved = await run('approve', reported.json.id, '--reason', 'confirmed by the parish');
    assert.equal(approved.json.done, `approved ${reported.json.id} and queued an OpenStreetMap note about node/3191740661`);
    assert.equal((await s.toilet(OTHER)).verification_state, 'unverified', 'no open report: no longer disputed');

    assert.deepEqual(await s.app.community.osmNotes!.flush(), { sent: 1, failed: 0 });
    assert.equal(osm.notes.length, 1);
    const [note] = osm.notes;
    assert.equal(note.path, 'POST /api/0.6/notes.json');
    assert.deepEqual([note.form.get('lat'), note.form.get('lon')], ['41.1463633', '-8.6165684']);
    assert.match(note.form.get('text')!, /https:\/\/www\.openstreetmap\.org\/node\/3191740661\) is gone/);
    assert.ok(!note.form.get('text')!.includes('555-0100'), 'the user’s note is not published');
    assert.match(note.agent, /toilets\.example\.test/);
    assert.deepEqual(await s.app.community.osmNotes!.flush(), { sent: 0, failed: 0 }, 'sent once');
    const row = s.app.community.store.readable.prepare('SELECT note_id, last_error FROM osm_notes').get();
    assert.deepEqual(row, { note_id: 4201, last_error: null });

    const rejected = await s.post(`/api/v1/toilets/${OTHER}/reports`, { kind: 'closed' });
    assert.equal((await run('reject', rejected.json.id, '--reason', 'open today')).json.done, `rejected ${rejected.json.id}`);
    assert.equal(osm.notes.length, 1, 'a rejected report sends nothing');
  });

  test('lock and unlock a value: decided by the moderator over the votes, then by the votes again', async () => {
    for (const [device, ip] of [[11, '192.0.2.1'], [12, '192.0.2.2']] as const) {
      await s.post(`/api/v1/toilets/${PAID}/votes`, { votes: [{ attribute: 'wheelchair', value: 'no' }], device_id: deviceId(device) }, { ip });
    }
    assert.equal((await s.toilet(PAID)).wheelchair, 'no');
    assert.equal((await run('lock', PAID, 'wheelchair', 'Limited', '--reason', 'ramp but no rails')).status, 0);
    const [locked] = (await run('log', '--limit', '1')).json;
    let toilet = await s.toilet(PAID);
    assert.equal(toilet.wheelchair, 'limited');
    // the command ran on its own clock: the lock is dated by the day of its log entry
    assert.deepEqual(toilet.provenance.decided.wheelchair, { by: 'moderator', votes_for: null, votes_total: null, as_of: locked.at.slice(0, 10) });
    assert.deepEqual([locked.action, locked.target, locked.reason, locked.details], ['lock', PAID, 'ramp but no rails', { attribute: 'wheelchair', value: 'limited' }]);
    assert.equal((await run('lock', PAID, 'wheelchair', 'sometimes', '--reason', 'x')).status, 1, 'values take the vote forms');
    assert.equal((await run('lock', PAID, 'colour', 'blue', '--reason', 'x')).status, 1);
    assert.equal((await run('lock', 'n1', 'wheelchair', 'yes', '--reason', 'x')).status, 1, 'no such toilet');
    assert.equal((await run('unlock', PAID, 'wheelchair', '--reason', 'votes are fine')).status, 0);
    toilet = await s.toilet(PAID);
    assert.equal(toilet.wheelchair, 'no');
    assert.equal(toilet.provenance.decided.wheelchair.by, 'votes');
    assert.equal((await run('unlock', PAID, 'wheelchair', '--reason', 'again')).status, 1, 'no lock left');
  });

  test('most voters calling a toilet gone hides nothing but puts it in front of a moderator; marked gone it leaves every answer', async () => {
    for (const [device, ip] of [[21, '192.0.2.11'], [22, '192.0.2.12']] as const) {
      await s.post(`/api/v1/toilets/${OTHER}/votes`, { votes: [{ attribute: 'existence', value: 'gone' }], device_id: deviceId(device) }, { ip });
    }
    assert.equal((await s.get(`/api/v1/toilets/${OTHER}`)).status, 200);
    assert.deepEqual((await run('list', 'gone-votes')).json.gone_votes, [{ toilet_id: OTHER, name: null, gone_votes: 2, exists_votes: 1 }]);

    assert.equal((await run('gone', OTHER, '--reason', 'demolished in May')).status, 0);
    assert.equal((await s.get(`/api/v1/toilets/${OTHER}`)).status, 404);
    const near = await s.get('/api/v1/toilets/nearest?lat=41.1463633&lon=-8.6165684&limit=20');
    assert.ok(!near.json.results.some((t: { id: string }) => t.id === OTHER));
    const area = await s.get('/api/v1/toilets?bbox=-8.62,41.14,-8.61,41.15&limit=200');
    assert.ok(!area.json.results.some((t: { id: string }) => t.id === OTHER));
    assert.equal((await s.post(`/api/v1/toilets/${OTHER}/confirmations`, {})).status, 404, 'no contributions to a gone toilet');
    assert.deepEqual((await run('list', 'gone-votes')).json.gone_votes, []);

    assert.equal((await run('unlock', OTHER, 'existence', '--reason', 'rebuilt')).status, 0);
    assert.equal((await s.get(`/api/v1/toilets/${OTHER}`)).status, 200);
  });

  test('every action is in the log with its time and reason', async () => {
    // the real script in a process of its own: its exit code and what it prints
    const log = operatorCommand('moderate-cli', data, ['log', '--limit', '3', '--json'], env);
    assert.equal(log.status, 0, log.stderr);
    assert.deepEqual(
      log.json.map((e: { action: string; target: string; reason: string }) => [e.action, e.target, e.reason]),
      [
        ['unlock', OTHER, 'rebuilt'],
        ['gone', OTHER, 'demolished in May'],
        ['unlock', PAID, 'votes are fine'],
      ],
    );
    for (const entry of log.json) assert.match(entry.at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.deepEqual(log.json[1].details, { attribute: 'existence', value: 'gone' });
    assert.equal((await moderate(data, ['frobnicate'], env)).status, 2, 'unknown command: usage');
  });

  test('answers stay valid against the schemas', async () => {
    assertValid('AreaResult', (await s.get('/api/v1/toilets?bbox=-8.62,41.13,-8.60,41.15&limit=200')).json);
  });
});
