// "Claim this toilet" on a toilet's page: a signed-in browser gets the form, others the link to sign in and
// come back. The form checks what it can before sending (name length, e-mail and website shape), sends
// claimToilet with the session cookie, shows the server's problems beside their fields, and explains the
// two 409s in words: this account claimed it already, or another business holds it (told apart by the
// account's own claims, listMyPartnerListings, not by parsing the problem's text).
import { fieldText, localHref, rememberSignedIn, signedIn, t } from './common.js';
import { call, failureText, type Answer } from './account-api.js';
import { clearErrors, showFieldErrors, type Problem } from './contribute.js';
import { el } from './dom.js';
import type { SchemaValue } from '../../src/schemas/answer-types.js';

export function startClaim(section: HTMLElement, toiletId: string): void {
  const details = section.querySelector<HTMLDetailsElement>('details.claim-form')!;
  const signInLine = section.querySelector<HTMLElement>('.claim-sign-in')!;
  const form = details.querySelector('form')!;
  const showForm = (on: boolean) => {
    details.hidden = !on;
    signInLine.hidden = on;
  };
  showForm(signedIn());
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void send(form, toiletId, showForm);
  });
}

/** The fields' own checks, said in words beside each field; true when all pass. */
function checkFields(form: HTMLFormElement): boolean {
  const problems: { name: string; reason: string }[] = [];
  const data = new FormData(form);
  const name = fieldText(data, 'business_name').trim();
  if (name.length < 2 || name.length > 80) problems.push({ name: 'business_name', reason: t('claim.needName') });
  const email = form.querySelector<HTMLInputElement>('[name=contact_email]')!;
  if (email.value.trim() === '' || !email.validity.valid) problems.push({ name: 'contact_email', reason: t('claim.needEmail') });
  const website = fieldText(data, 'website').trim();
  if (website !== '' && !/^https?:\/\/\S+$/i.test(website)) problems.push({ name: 'website', reason: t('claim.badWebsite') });
  if (problems.length === 0) return true;
  showFieldErrors(form, { invalid_params: problems }, (param) => param.reason);
  form.querySelector<HTMLElement>('[aria-invalid=true]')?.focus();
  return false;
}

async function send(form: HTMLFormElement, toiletId: string, showForm: (on: boolean) => void): Promise<void> {
  const status = form.querySelector('.form-status')!;
  clearErrors(form);
  status.replaceChildren();
  if (!checkFields(form)) {
    status.textContent = t('claim.fix');
    return;
  }
  const data = new FormData(form);
  const optional = (name: string) => {
    const value = fieldText(data, name).trim();
    return value === '' ? {} : { [name]: value };
  };
  const body = { business_name: fieldText(data, 'business_name').trim(), contact_email: fieldText(data, 'contact_email').trim(), ...optional('contact_phone'), ...optional('website'), ...optional('note') };
  status.textContent = t('improve.sending');
  let answer: Answer<SchemaValue<'ClaimToiletAnswer'> | Problem>;
  try {
    answer = await call('POST', `/toilets/${encodeURIComponent(toiletId)}/claims` as const, body);
  } catch (error) {
    status.textContent = failureText(error);
    return;
  }
  switch (answer.status) {
    case 201:
      form.reset();
      status.replaceChildren(t('claim.sent'), ' ', el('a', { href: localHref('/partner') }, t('claim.dashboard')));
      return;
    case 401:
      rememberSignedIn(false);
      showForm(false);
      status.textContent = t('claim.signedOut');
      return;
    case 404:
      status.textContent = t('claim.gone');
      return;
    case 409:
      status.replaceChildren(...(await conflictText(toiletId)));
      return;
    case 400:
      showFieldErrors(form, answer.body as Problem);
      status.textContent = t('claim.fix');
      return;
    default:
      status.textContent = failureText(answer);
  }
}

/** Which 409 it was: the account's own open claim on the toilet, else another business's approved one. */
async function conflictText(toiletId: string): Promise<(Node | string)[]> {
  const mine = await call('GET', '/partner/listings');
  const own = mine.status === 200 ? mine.body.listings.find((l) => l.toilet_id === toiletId && (l.claim.status === 'pending' || l.claim.status === 'approved')) : undefined;
  if (own === undefined) return [t('claim.taken')];
  return [t('claim.yours', { status: t(`dash.status.${own.claim.status as 'pending' | 'approved'}`) }), ' ', el('a', { href: localHref('/partner') }, t('claim.dashboard'))];
}
