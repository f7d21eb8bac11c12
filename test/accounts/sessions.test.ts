// listSessions and endSession through the real server with real passkeys: each session with its public id
// (never the cookie's token), times, coarse device label and which one is this; ending another session
// signs that browser out, ending this one removes the cookie; ending needs a recent passkey and the site's
// origin; never cached; the label keeps browser and system only.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Clock } from '../community/support.js';
import { accountsSuite, Browser, valid } from './support.js';
import { deviceLabel } from '../../src/accounts/device-label.js';

const START = '2024-06-05T08:00:00Z';
const MINUTE = 60_000;
const FIREFOX_ANDROID = 'Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0';
const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

describe('sessions of an account', () => {
  const clock = new Clock(Date.parse(START));
  const suite = accountsSuite(clock);

  test('listSessions: id, times, device, current; endSession ends another (recent passkey needed) or this one', async () => {
    clock.set(START);
    const phone = new Browser(suite.service);
    const created = await phone.request('POST', '/account/passkey-options', { body: { display_name: 'Ada' } });
    const credential = phone.authenticator.register(created.json);
    const signedUp = await phone.request('POST', '/account', {
      body: { display_name: 'Ada', challenge_token: await suite.service.token(phone.ip), credential },
      headers: { 'User-Agent': FIREFOX_ANDROID },
    });
    assert.equal(signedUp.status, 201, JSON.stringify(signedUp.json));
    const phoneToken = phone.cookie!.split('=')[1];

    clock.ms += 2 * MINUTE;
    const laptop = new Browser(suite.service);
    const [passkey] = phone.authenticator.passkeys.keys();
    laptop.authenticator.passkeys.set(passkey, phone.authenticator.passkeys.get(passkey)!);
    const options = await laptop.request('POST', '/session/options');
    const signedIn = await laptop.request('POST', '/session', { body: { credential: laptop.authenticator.assert(options.json, passkey) }, headers: { 'User-Agent': CHROME_MAC } });
    assert.equal(signedIn.status, 200);

    const list = await phone.request('GET', '/account/sessions');
    assert.equal(list.status, 200);
    valid('SessionList', list.json);
    assert.equal(list.headers.get('cache-control'), 'no-store');
    assert.equal(list.headers.get('access-control-allow-origin'), null);
    const [latest, first] = list.json.sessions;
    assert.deepEqual(
      list.json.sessions.map((s: { device: string; current: boolean; created_at: string }) => [s.device, s.current, s.created_at]),
      [['Chrome on macOS', false, '2024-06-05T08:02:00.000Z'], ['Firefox on Android', true, START.replace('Z', '.000Z')]],
      'the last used first; the phone is this one',
    );
    assert.notEqual(latest.id, first.id);
    assert.equal(JSON.stringify(list.json).includes(phoneToken), false, 'no token in the answer');
    assert.deepEqual((await laptop.request('GET', '/account/sessions')).json.sessions.map((s: { current: boolean }) => s.current), [true, false]);

    const foreign = await phone.request('DELETE', `/account/sessions/${latest.id}`, { origin: 'https://evil.example' });
    assert.equal(foreign.status, 403);
    clock.ms += 6 * MINUTE;
    const stale = await phone.request('DELETE', `/account/sessions/${latest.id}`);
    assert.equal(stale.status, 401);
    assert.ok(stale.json.type.endsWith('/problems/reauthentication-required'));

    assert.equal((await phone.signIn(passkey)).status, 200, 're-authenticated (a new session replaces the phone’s)');
    const relisted = (await phone.request('GET', '/account/sessions')).json.sessions as { id: string; current: boolean; device: string | null }[];
    assert.equal(relisted.length, 2, 'sign-in rotated the phone’s session');
    const laptopSession = relisted.find((s) => !s.current)!;
    const ended = await phone.request('DELETE', `/account/sessions/${laptopSession.id}`);
    assert.equal(ended.status, 200, JSON.stringify(ended.json));
    valid('SessionEnded', ended.json);
    assert.deepEqual(ended.json, { ended: laptopSession.id, current: false });
    assert.equal(phone.setCookie?.includes('Max-Age=0'), false, 'this session keeps its cookie');
    assert.equal((await laptop.request('GET', '/account')).status, 401, 'the laptop is signed out');
    assert.equal((await phone.request('DELETE', `/account/sessions/${laptopSession.id}`)).status, 404, 'ended already');

    const own = relisted.find((s) => s.current)!;
    const self = await phone.request('DELETE', `/account/sessions/${own.id}`);
    assert.deepEqual(self.json, { ended: own.id, current: true });
    assert.match(phone.setCookie!, /Max-Age=0/);
    assert.equal((await phone.request('GET', '/account')).status, 401);
  });

  test('without a session both answer 401; an id the account has not 404', async () => {
    const nobody = new Browser(suite.service);
    assert.equal((await nobody.request('GET', '/account/sessions')).status, 401);
    assert.equal((await nobody.request('DELETE', '/account/sessions/ses_AAAAAAAAAAAAAAAAAAAAAA')).status, 401);
    const someone = new Browser(suite.service);
    clock.set(START);
    await someone.signUp('Bo');
    const bad = await someone.request('DELETE', '/account/sessions/not-a-session');
    assert.equal(bad.status, 404);
    assert.ok(bad.json.type.endsWith('/problems/not-found'));
  });

  test('the device label keeps the browser family and system only', () => {
    assert.equal(deviceLabel(FIREFOX_ANDROID), 'Firefox on Android');
    assert.equal(deviceLabel(CHROME_MAC), 'Chrome on macOS');
    assert.equal(deviceLabel('Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'), 'Safari on iPhone');
    assert.equal(deviceLabel('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0'), 'Edge on Windows');
    assert.equal(deviceLabel('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36'), 'Chrome on Linux');
    assert.equal(deviceLabel('curl/8.5.0'), null);
    assert.equal(deviceLabel(''), null);
  });
});
