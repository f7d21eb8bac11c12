// The /oauth pages in the visitor's language (issue 45): each language of src/oauth/text has every key of
// English with the same placeholders, and a consent page (of a client ID metadata document's client, with
// its host lines), the sign-in page and the connections page come in the language Accept-Language asks for,
// say it (lang, Content-Language, Vary), and carry none of the English sentences.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PAGE_TEXTS, type PageTextKey } from '../../src/oauth/text/texts.js';
import { LANGUAGES, LOCALES } from '../../src/web/text/catalogue.js';
import { Clock } from '../community/support.js';
import { Browser } from '../accounts/support.js';
import { documentSuite } from './document-host.js';
import { REDIRECT_URI, RESOURCE, SCOPE } from './support.js';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
/** Texts that are the same word in some languages. */
const SAME_AS_ENGLISH = new Set<PageTextKey>(['connections.app', 'connections.action', 'consent.hostsAnd']);

test('every language of the /oauth pages has every key, with the placeholders of English', () => {
  const keys = Object.keys(PAGE_TEXTS.en) as PageTextKey[];
  for (const lang of LANGUAGES) {
    assert.deepEqual(Object.keys(PAGE_TEXTS[lang]).sort(), [...keys].sort(), lang);
    for (const key of keys) {
      assert.deepEqual(placeholders(PAGE_TEXTS[lang][key]), placeholders(PAGE_TEXTS.en[key]), `${lang} ${key}`);
      if (lang !== 'en' && !SAME_AS_ENGLISH.has(key)) assert.notEqual(PAGE_TEXTS[lang][key], PAGE_TEXTS.en[key], `${lang} ${key} is not translated`);
    }
  }
});

describe('the /oauth pages in each language', () => {
  const suite = documentSuite(new Clock(Date.parse('2024-06-05T08:00:00Z')));
  /** English sentences that must not appear on a page in another language. */
  const ENGLISH = ['not verified by us', 'asks to act for your account', 'It gets', 'For how long', 'Approve only if', 'Describes itself at', 'Sign in with a passkey', 'Connected apps', 'a program on this computer'];

  test('consent, sign-in and connections pages follow Accept-Language', async () => {
    const { service, host } = suite;
    const url = host.url('languages.example.test');
    host.set(url, { body: { client_id: url, client_name: 'Polyglot Agent', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' } });
    const query = new URLSearchParams({ response_type: 'code', client_id: url, redirect_uri: REDIRECT_URI, code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', resource: RESOURCE, scope: SCOPE });
    for (const lang of LANGUAGES) {
      const browser = new Browser(service);
      await browser.signUp(`Reader ${lang}`);
      const get = async (path: string, cookie: string | null) => {
        const response = await fetch(`${service.url}${path}`, { headers: { 'Accept-Language': `${LOCALES[lang]},${lang};q=0.9`, 'X-Forwarded-For': browser.ip, ...(cookie === null ? {} : { Cookie: cookie }) } });
        const text = await response.text();
        assert.equal(response.status, 200, `${lang} ${path}: ${text.slice(0, 300)}`);
        assert.equal(response.headers.get('content-language'), LOCALES[lang]);
        assert.match(response.headers.get('vary') ?? '', /Accept-Language/);
        assert.match(text, new RegExp(`<html lang="${LOCALES[lang]}">`));
        return text;
      };
      const pages = { consent: await get(`/oauth/authorize?${query}`, browser.cookie), signIn: await get(`/oauth/authorize?${query}`, null), connections: await get('/oauth/connections', browser.cookie) };
      assert.match(pages.consent, /Polyglot Agent/);
      assert.ok(pages.consent.includes(PAGE_TEXTS[lang]['consent.describedAt']), `${lang}: the document's host line`);
      assert.ok(pages.consent.includes(new URL(url).host));
      for (const [name, text] of Object.entries(pages)) {
        if (lang === 'en') continue;
        const found = ENGLISH.filter((sentence) => text.includes(sentence));
        assert.deepEqual(found, [], `${lang} ${name} page has English`);
      }
    }
  });
});
