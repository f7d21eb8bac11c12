// Compile-time checks of the API client's types (account-api.ts): each call below must not compile, and
// `tsc -p web/tsconfig.json` (npm run build) fails when one does, e.g. when the client's types stopped
// coming from the registry. Never imported, so never bundled.
import { call } from './account-api.js';

export async function mismatches(): Promise<void> {
  // @ts-expect-error: no operation has this path
  await call('GET', '/partner/listing');
  // @ts-expect-error: listMyPartnerListings is a GET
  await call('POST', '/partner/listings');
  const listed = await call('GET', '/partner/listings');
  // @ts-expect-error: a listing has no `title` (it has `name` and `toilet_name`)
  void listed.body.listings[0].title;
  // @ts-expect-error: checkPartnerHours takes `opening_hours`
  await call('POST', '/partner/listings/pl_0/hours-check', { hours: 'Mo-Fr 08:00-18:00' });
  // @ts-expect-error: a session's `current` is a boolean
  const current: string = (await call('GET', '/account/sessions')).body.sessions[0].current;
  void current;
}
