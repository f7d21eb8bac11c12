// The site's moderator queue operations (listModerationQueue, moderate) through the real server: only a
// signed-in moderator reads the queue (401 signed out, 403 without the role), with the context the command
// line lists; each action needs a passkey sign-in of the last 5 minutes and the site's origin, does what
// `npm run moderate` does (a submission becomes a toilet that getToilet serves at once), is refused as the
// command line refuses it (409 with its reason), and is recorded in the same log with the moderator's id.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Clock, moderate } from '../community/support.js';
import { accountsSuite, Browser, valid } from './support.js';

const START = '2024-06-05T08:00:00Z';
const MINUTE = 60_000;
/** By the Monte-Carlo casino: n4316767608 is listed 97 m away. */
const PROPOSED = { lat: 43.7394, lon: 7.4276, name: 'Casino gardens', wheelchair: 'yes' };

describe('the moderator queue operations', () => {
  const clock = new Clock(Date.parse(START));
  const suite = accountsSuite(clock);

  test('signed out 401, without the role 403, for reading and acting', async () => {
    clock.set(START);
    const nobody = new Browser(suite.service);
    assert.equal((await nobody.request('GET', '/moderation/queue')).status, 401);
    assert.equal((await nobody.request('POST', '/moderation/actions', { body: { action: 'approve', target: 'sub_1', reason: 'x' } })).status, 401);
    const visitor = new Browser(suite.service);
    await visitor.signUp('Visitor');
    for (const [method, path, body] of [['GET', '/moderation/queue', undefined], ['POST', '/moderation/actions', { action: 'approve', target: 'sub_1', reason: 'x' }]] as const) {
      const refused = await visitor.request(method, path, { body });
      assert.equal(refused.status, 403, `${method} ${path}`);
      assert.ok(refused.json.type.endsWith('/problems/moderator-required'));
    }
  });

  test('a moderator sees the queue with context and approves a submission; the log names the moderator', async () => {
    clock.set(START);
    const submitted = await suite.service.post('/api/v1/submissions', PROPOSED);
    assert.equal(submitted.status, 201);
    const submission = submitted.json.id as string;

    const mod = new Browser(suite.service);
    const account = await mod.signUp('Mo');
    assert.equal((await moderate(suite.data, ['moderators', 'add', account.id, '--reason', 'queue test'])).status, 0);

    const queue = await mod.request('GET', '/moderation/queue', { origin: null });
    assert.equal(queue.status, 200);
    valid('ModerationQueue', queue.json);
    assert.equal(queue.headers.get('cache-control'), 'no-store');
    assert.equal(queue.headers.get('access-control-allow-origin'), null);
    const listed = (await moderate(suite.data, ['list', '--json'])).json;
    assert.deepEqual(queue.json.submissions, listed.submissions, 'the same context as the command line');
    assert.deepEqual(queue.json.locks, listed.locks);
    const entry = queue.json.submissions.find((s: { id: string }) => s.id === submission);
    assert.ok(entry.nearby.some((n: { id: string }) => n.id === 'n4316767608'), 'toilets already listed nearby');

    const action = { action: 'approve', target: submission, reason: 'checked on the map' };
    assert.equal((await mod.request('POST', '/moderation/actions', { body: action, origin: 'https://evil.example' })).status, 403);
    const incomplete = await mod.request('POST', '/moderation/actions', { body: { action: 'lock', toilet_id: 'n4316767608', reason: 'x' } });
    assert.equal(incomplete.status, 400);
    assert.deepEqual(incomplete.json.invalid_params.map((p: { name: string }) => p.name), ['fact', 'value']);
    assert.equal((await mod.request('POST', '/moderation/actions', { body: { ...action, reason: ' ' } })).status, 400, 'a reason is required');

    clock.ms += 6 * MINUTE;
    const stale = await mod.request('POST', '/moderation/actions', { body: action });
    assert.equal(stale.status, 401);
    assert.ok(stale.json.type.endsWith('/problems/reauthentication-required'));
    assert.equal((await mod.signIn()).status, 200);

    const done = await mod.request('POST', '/moderation/actions', { body: action });
    assert.equal(done.status, 200, JSON.stringify(done.json));
    valid('ModerationActionDone', done.json);
    const toiletId = `c_${submission.slice(4)}`;
    assert.equal(done.json.done, `approved ${submission}: it is toilet ${toiletId}`);
    assert.equal((await suite.service.toilet(toiletId)).name, 'Casino gardens', 'served at once');

    const again = await mod.request('POST', '/moderation/actions', { body: action });
    assert.equal(again.status, 409);
    assert.ok(again.json.type.endsWith('/problems/moderation-refused'));
    assert.match(again.json.detail, /is not a pending submission/);

    const locked = await mod.request('POST', '/moderation/actions', { body: { action: 'lock', toilet_id: toiletId, fact: 'fee', value: 'free', reason: 'sign on the door' } });
    assert.equal(locked.status, 200, locked.json.detail);
    const after = (await mod.request('GET', '/moderation/queue')).json;
    assert.deepEqual(after.locks.map((l: { toilet_id: string; fact: string; value: string }) => [l.toilet_id, l.fact, l.value]), [[toiletId, 'fee', 'free']]);
    assert.deepEqual(after.log.slice(0, 2).map((e: { action: string; target: string; details: { by?: string } }) => [e.action, e.target, e.details.by]), [
      ['lock', toiletId, account.id],
      ['approve', submission, account.id],
    ]);
    const cliLog = (await moderate(suite.data, ['log', '--json'])).json;
    assert.deepEqual(cliLog[1], after.log[1], 'the one moderation log');
    const unknownToilet = await mod.request('POST', '/moderation/actions', { body: { action: 'gone', toilet_id: 'n1', reason: 'x' } });
    assert.equal(unknownToilet.status, 409);
  });
});
