// The account pages' script (one bundle entry; each page loads only its own part): sign up, sign in,
// recovery, the account page, the moderator queue and the partner dashboard. The server renders every page the same for everyone
// (src/web/account-pages.ts); this script fills in the personal parts from the account operations.
import { startPage } from './common.js';

startPage();
switch (document.body.dataset.page) {
  case 'signup':
  case 'signin':
  case 'recover':
    void import('./passkey-forms.js').then((forms) => forms.start(document.body.dataset.page as 'signup' | 'signin' | 'recover'));
    break;
  case 'account':
    void import('./account-page.js').then((page) => page.start());
    break;
  case 'moderation':
    void import('./moderation-page.js').then((page) => page.start());
    break;
  case 'partner':
    void import('./partner-page.js').then((page) => page.start());
    break;
  default:
    throw new Error(`no account page ${document.body.dataset.page ?? '(none)'}`);
}
