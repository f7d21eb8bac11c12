// The account pages of the site: sign up, sign in (passkey autofill), the account page, the recovery-link
// landing, the moderator queue, the partner dashboard (a business's claims, listings, plans and payment, label
// and live switch). They are server-rendered shells that carry no personal data: the page
// script (web/src/account.ts) asks the account operations for it, so the HTML is the same for everyone,
// and it is still sent `no-store` (and outside the service worker's allow-list) so that nothing of a
// signed-in page is kept on a shared device. Each page names itself in `data-page` for the script; the
// dashboard also says whether this site takes partner payments (`data-payments`, from the operator's
// settings, the same for everyone).
import { FACT_ATTRIBUTES } from '../rules/facts.js';
import { escapeHtml, localPath, type PageContent, type PageContext } from './layout.js';
import { text, type TextKey } from './text/catalogue.js';

export type AccountPage = 'signup' | 'signin' | 'account' | 'recover' | 'moderation' | 'partner';

/** Path → page; `/account/recover` carries the operator's token in its fragment, which no server sees. */
export const ACCOUNT_PAGES: Record<string, AccountPage> = {
  '/signup': 'signup',
  '/signin': 'signin',
  '/account': 'account',
  '/account/recover': 'recover',
  '/moderation': 'moderation',
  '/partner': 'partner',
};

const TITLES: Record<AccountPage, TextKey> = {
  signup: 'signup.heading',
  signin: 'signin.heading',
  account: 'account.heading',
  recover: 'recover.heading',
  moderation: 'mod.heading',
  partner: 'dash.heading',
};

/** Whether the site takes partner payments: `closed` (no STRIPE_SECRET_KEY), or open with VAT added from the billing address or not. */
export type PartnerPayments = 'closed' | 'vat' | 'net';

export function accountPage(context: PageContext, page: AccountPage, payments: PartnerPayments): PageContent {
  const t = (key: TextKey, vars?: Record<string, string | number>) => escapeHtml(text(context.lang, key, vars));
  const link = (path: string) => escapeHtml(localPath(context, path));
  // the forms' submit buttons are enabled by their script once wired (enableSubmit in web/src/common.ts)
  const status = '<p class="form-status" role="status" aria-live="polite"></p>';
  const noscript = `<noscript><p>${t('passkey.unsupported')}</p></noscript>`;
  const unsupported = `<p class="unsupported notice-inline" hidden>${t('passkey.unsupported')}</p>`;
  const bodies: Record<AccountPage, () => string> = {
    signup: () => `<p>${t('signup.intro')}</p>
${unsupported}
<form id="signup" class="account-form" data-op="signup" novalidate>
<label for="su-name">${t('signup.name')}</label><input id="su-name" name="display_name" required maxlength="60" autocomplete="nickname">
<label for="su-email">${t('signup.email')}</label><input id="su-email" name="email" type="email" maxlength="254" autocomplete="email">
<div class="human"></div>
<button type="submit" class="primary" disabled>${t('signup.submit')}</button>
${status}
</form>
<p>${t('signup.haveAccount')} <a href="${link('/signin')}">${t('nav.signIn')}</a></p>${noscript}`,
    signin: () => `<p>${t('signin.intro')}</p>
${unsupported}
<form id="signin" class="account-form" data-op="signin" novalidate>
<label for="si-passkey">${t('signin.field')}</label><input id="si-passkey" name="username" autocomplete="username webauthn" placeholder="${t('signin.fieldHint')}">
<button type="submit" class="primary" disabled>${t('signin.button')}</button>
${status}
</form>
<p>${t('signin.noAccount')} <a href="${link('/signup')}">${t('signin.create')}</a></p>
<p class="hint">${t('signin.lost')}</p>${noscript}`,
    account: () => `<p id="account-status" class="message" role="status" aria-live="polite">${t('account.loading')}</p>
<div id="account" hidden>
<section class="panel" aria-labelledby="acc-name"><h2 id="acc-name"></h2><p id="acc-meta"></p><p><span id="acc-id"></span><br><span class="hint">${t('account.idHint')}</span></p><p id="acc-moderator" hidden>${t('account.moderator')} <a href="${link('/moderation')}">${t('account.queue')}</a></p><p><a href="${link('/partner')}">${t('dash.account')}</a></p></section>
<div id="end-others" class="offer" role="status" hidden><p></p><button type="button" class="primary">${t('account.endOthersButton')}</button></div>
<section class="panel" aria-labelledby="passkeys-h"><h2 id="passkeys-h">${t('account.passkeys')}</h2>
<ul id="passkey-list" class="item-list"></ul>
<form id="add-passkey" class="account-form" data-op="add-passkey" novalidate>
<label for="ap-name">${t('account.addName')}</label><input id="ap-name" name="name" maxlength="60">
<button type="submit">${t('account.add')}</button>
${status}
</form></section>
<section class="panel" aria-labelledby="sessions-h"><h2 id="sessions-h">${t('account.sessions')}</h2>
<ul id="session-list" class="item-list"></ul>
<form id="sessions" class="account-form" data-op="sessions"><button type="submit" id="sign-out-everywhere">${t('account.signOutEverywhere')}</button>
<p class="hint">${t('account.connectionsHint')} <a href="/oauth/connections">${t('account.connectionsLink')}</a></p>
<button type="button" id="end-everything" class="danger-outline">${t('account.endAll')}</button>${status}</form>
<form id="sign-out" class="account-form" data-op="sign-out"><button type="submit">${t('account.signOut')}</button>${status}</form>
</section>
<section class="panel danger-zone" aria-labelledby="delete-h"><h2 id="delete-h">${t('account.delete')}</h2>
<p>${t('account.deleteText')}</p>
<form id="delete-account" class="account-form" data-op="delete" novalidate>
<label class="check"><input type="checkbox" name="confirm" required> ${t('account.deleteConfirm')}</label>
<button type="submit" class="danger">${t('account.deleteButton')}</button>
${status}
</form>
<div id="delete-subscriptions" class="offer danger-offer" hidden><h3 id="delete-subs-h">${t('account.deleteSubsHeading')}</h3><ul class="item-list"></ul>
<p>${t('account.deleteSubsText')}</p>
<button type="button" class="danger">${t('account.deleteSubsButton')}</button>
<p class="form-status" role="status" aria-live="polite"></p></div></section>
</div>
${reauthDialog(t)}${noscript}`,
    recover: () => `<p>${t('recover.intro')}</p>
${unsupported}
<form id="recover" class="account-form" data-op="recover" novalidate>
<label for="rc-name">${t('recover.name')}</label><input id="rc-name" name="name" maxlength="60">
<button type="submit" class="primary" disabled>${t('recover.submit')}</button>
${status}
</form>${noscript}`,
    moderation: () => `<p id="mod-status" class="message" role="status" aria-live="polite">${t('account.loading')}</p>
<div id="queue"></div>
<section id="lock-section" class="panel" aria-labelledby="lock-h" hidden><h2 id="lock-h">${t('mod.lockHeading')}</h2>
<form id="lock-fact" class="account-form mod-action" data-op="lock" novalidate>
<label for="lk-toilet">${t('mod.toiletId')}</label><input id="lk-toilet" name="toilet_id" required maxlength="64" autocomplete="off">
<label for="lk-fact">${t('mod.fact')}</label><select id="lk-fact" name="fact">${FACT_ATTRIBUTES.map((f) => `<option value="${f}">${t(`fact.${f}`)}</option>`).join('')}</select>
<label for="lk-value">${t('mod.value')}</label><input id="lk-value" name="value" required maxlength="200" autocomplete="off">
<label for="lk-reason">${t('mod.reason')}</label><input id="lk-reason" name="reason" required maxlength="500" autocomplete="off">
<button type="submit">${t('mod.lock')}</button>
${status}
</form></section>
${reauthDialog(t)}${noscript}`,
    partner: () => `<p>${t('dash.intro')}</p>
<p id="partner-status" class="message" role="status" aria-live="polite">${t('dash.loading')}</p>
<div id="listings"></div>
<p id="no-listings" hidden>${t('dash.none')} <a href="${link('/')}">${t('dash.find')}</a></p>${noscript}`,
  };
  return {
    title: `${text(context.lang, TITLES[page])} – ${text(context.lang, 'site.name')}`,
    script: 'account.js',
    bodyData: { 'data-page': page, ...(page === 'partner' ? { 'data-payments': payments } : {}) },
    cacheControl: 'no-store',
    main: `<h1>${t(TITLES[page])}</h1>\n${bodies[page]()}`,
  };
}

/** The prompt for a fresh passkey assertion when an operation answers 401 reauthentication-required. */
function reauthDialog(t: (key: TextKey) => string): string {
  return `<dialog id="reauth" aria-labelledby="reauth-h"><h2 id="reauth-h">${t('account.reauthHeading')}</h2>
<p>${t('account.reauthText')}</p>
<div class="actions"><button type="button" id="reauth-go" class="primary">${t('account.reauthButton')}</button> <button type="button" id="reauth-cancel">${t('account.cancel')}</button></div>
<p class="form-status" role="status" aria-live="polite"></p></dialog>`;
}
