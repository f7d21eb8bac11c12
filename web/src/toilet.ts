// The toilet page's forms: confirm, rate, report and vote, each with the human check, loaded when the
// person opens the form, and "Claim this toilet" (claim.ts, its own chunk). The facts above stay
// server-rendered; a reload shows the effect of a send.
import { enableSubmit, fieldText, startPage, t } from './common.js';
import { prepareContribution, deviceId, send } from './contribute.js';

startPage();
const article = document.querySelector<HTMLElement>('article.toilet');
const id = article?.dataset.toiletId;

if (article && id) {
  const base = `/api/v1/toilets/${encodeURIComponent(id)}`;
  for (const details of article.querySelectorAll('details.improve')) {
    const form = details.querySelector('form')!;
    details.addEventListener('toggle', () => {
      if ((details as HTMLDetailsElement).open) void prepareContribution(form);
    });
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const data = new FormData(form);
      switch (form.dataset.op) {
        case 'confirm':
          void send(form, `${base}/confirmations`, {}, (a) => t('improve.thanksConfirm', { count: (a as { confirmations: number }).confirmations }));
          break;
        case 'rate':
          void send(form, `${base}/ratings`, { rating: Number(fieldText(data, 'rating')), device_id: deviceId() }, (a) => {
            const c = (a as { cleanliness: { average: number; count: number } }).cleanliness;
            return t('improve.thanksRate', { average: c.average, count: c.count });
          });
          break;
        case 'report': {
          const note = fieldText(data, 'note').trim();
          void send(form, `${base}/reports`, { kind: fieldText(data, 'kind'), ...(note ? { note } : {}) }, () => t('improve.thanksPending'));
          break;
        }
        case 'vote':
          void send(form, `${base}/votes`, { votes: [{ attribute: fieldText(data, 'attribute'), value: fieldText(data, 'value') }], device_id: deviceId() }, () => t('improve.thanksVote'));
          break;
        default:
          throw new Error(`no sender for form ${form.dataset.op ?? '(none)'}`);
      }
    });
    enableSubmit(form);
  }
  const claim = article.querySelector<HTMLElement>('section.claim');
  if (claim) void import('./claim.js').then((module) => module.startClaim(claim, id));
  // the vote form says what is shown now, and the counts when votes decided it
  const select = article.querySelector<HTMLSelectElement>('#vote-attribute');
  const current = article.querySelector('#vote-current');
  select?.addEventListener('change', () => {
    const option = select.selectedOptions[0];
    if (current) current.textContent = t('improve.current', { value: option.dataset.current || '–' }) + (option.dataset.counts ?? '');
  });
}
