import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Problems } from '../../src/http/problem.js';
import { PROBLEM_TYPES } from '../../src/problems.js';
import { collectProblems, HTTP_PROBLEMS } from '../../src/http/problem-types.js';
import { BASE_URL, startServer } from './harness.js';

const problems = new Problems(BASE_URL, PROBLEM_TYPES);

function headerMap(headers: readonly string[] | undefined): Map<string, string> {
  // Expands joined header lines the way they go on the wire.
  const map = new Map<string, string>();
  const list = headers ?? [];
  for (let i = 0; i < list.length; i += 2) {
    const lines = `${list[i]}: ${list[i + 1]}`.split('\r\n');
    for (const line of lines) map.set(line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 2));
  }
  return map;
}

describe('Problems.reply', () => {
  test('an invalid-parameters problem lists each parameter', () => {
    const reply = problems.reply('invalid-parameters', 'Correct lat and limit.', {
      invalidParams: [
        { name: 'lat', reason: 'must be between -90 and 90' },
        { name: 'limit', reason: 'must be an integer from 1 to 20' },
      ],
    });
    assert.equal(reply.status, 400);
    assert.equal(headerMap(reply.headers).get('content-type'), 'application/problem+json');
    assert.deepEqual(JSON.parse(String(reply.body)), {
      type: 'http://toilets.test/problems/invalid-parameters',
      title: 'Invalid parameters',
      status: 400,
      detail: 'Correct lat and limit.',
      invalid_params: [
        { name: 'lat', reason: 'must be between -90 and 90' },
        { name: 'limit', reason: 'must be an integer from 1 to 20' },
      ],
    });
  });

  test('429 and 503 carry Retry-After and the same retry_after_seconds, and need them', () => {
    for (const slug of ['rate-limited', 'unavailable'] as const) {
      assert.throws(() => problems.reply(slug, 'Wait.'), /needs retryAfterSeconds/);
      const reply = problems.reply(slug, 'Wait.', { retryAfterSeconds: 16.2, headers: ['X-Extra', 'kept'] });
      const headers = headerMap(reply.headers);
      assert.equal(headers.get('retry-after'), '17');
      assert.equal(headers.get('x-extra'), 'kept');
      const body = JSON.parse(String(reply.body));
      assert.equal(body.status, reply.status);
      assert.equal(body.retry_after_seconds, 17);
    }
  });

  test('type URIs hang off the base URL, with or without its trailing slash', () => {
    assert.equal(new Problems('https://toilets.example/', PROBLEM_TYPES).typeUri('not-found'), 'https://toilets.example/problems/not-found');
    assert.equal(problems.typeUri('rate-limited'), `${BASE_URL}/problems/rate-limited`);
  });

  test('the detail is JSON-escaped, never breaking the document', () => {
    const detail = 'quote " backslash \\ newline \n </script>';
    assert.equal(JSON.parse(String(problems.reply('not-found', detail).body)).detail, detail);
  });

  test('the catalog extends with the API’s own kinds; slugs must be URL-safe', () => {
    const extended = new Problems(BASE_URL, {
      ...PROBLEM_TYPES,
      'contributions-off': { title: 'Contributions are off', status: 503, description: 'Try later.' },
    });
    assert.equal(JSON.parse(String(extended.reply('contributions-off', 'x', { retryAfterSeconds: 60 }).body)).title, 'Contributions are off');
    assert.throws(() => new Problems(BASE_URL, { 'Bad Slug': { title: 'x', status: 400, description: 'x' } }), /slug/);
  });
});

describe('problem type pages', () => {
  test('every type URL resolves to a short HTML page naming its title', async () => {
    let pages: Problems | undefined;
    const t = await startServer((server, hookProblems) => {
      server.route({ method: 'GET', pattern: '/problems/:slug', handler: (request) =>
        pages!.page(request.params.slug) ?? hookProblems.reply('not-found', `There is no problem type ${request.params.slug}.`),
      });
    });
    // Types named after the server's own origin, so that they resolve against it.
    pages = new Problems(t.origin, PROBLEM_TYPES);
    try {
      for (const [slug, kind] of Object.entries(PROBLEM_TYPES)) {
        const extra = kind.status === 429 || kind.status === 503 ? { retryAfterSeconds: 1 } : {};
        const type: string = JSON.parse(String(pages.reply(slug as keyof typeof PROBLEM_TYPES, 'x', extra).body)).type;
        const page = await fetch(type);
        assert.equal(page.status, 200, type);
        assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
        const html = await page.text();
        assert.match(html, new RegExp(`<title>${kind.title}</title>`));
        assert.match(html, new RegExp(`HTTP status ${kind.status}`));
      }
      const missing = await fetch(`${t.origin}/problems/no-such-thing`);
      assert.equal(missing.status, 404);
      assert.equal(missing.headers.get('content-type'), 'application/problem+json');
      await missing.body?.cancel();
    } finally {
      await t.server.close();
    }
  });

  test('page text is HTML-escaped', () => {
    const tricky = new Problems(BASE_URL, { tricky: { title: '<script>alert(1)</script>', status: 400, description: 'a & b' } });
    const html = String(tricky.page('tricky')!.body);
    assert.doesNotMatch(html, /<script>/);
    assert.match(html, /&#60;script&#62;/);
    assert.match(html, /a &#38; b/);
  });

  test('the catalogue collects every list once, and refuses a slug two features declare', () => {
    const one = { 'a-thing': { title: 'A', status: 400, description: 'a' } };
    const other = { 'b-thing': { title: 'B', status: 404, description: 'b' } };
    assert.deepEqual(Object.keys(collectProblems(one, other)), ['a-thing', 'b-thing']);
    assert.throws(() => collectProblems(one, other, { 'a-thing': { title: 'A again', status: 409, description: 'x' } }), /a-thing is declared twice/);
    assert.ok(Object.keys(PROBLEM_TYPES).length > Object.keys(HTTP_PROBLEMS).length, 'the features add their types');
  });
});
