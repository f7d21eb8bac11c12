// The stand-in's hosted pages a browser clicks through: the checkout page (billing address, "Pay", "Cancel"
// back to the cancel URL) and the customer portal (cancel the subscription, switch the plan, return). Plain
// HTML forms, no script, so a person or a headless browser can use them alike.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Stripe from 'stripe';
import { ApiRefusal, type Price, type StandInState } from './state.js';

export class StandInPages {
  constructor(private readonly state: StandInState) {}

  /** Answers a page request; false when the path is not a page's. */
  handle(request: IncomingMessage, response: ServerResponse, body: string): boolean {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const form = new URLSearchParams(body);
    const [, kind, id, action] = url.pathname.split('/');
    try {
      if (kind === 'checkout' && id) return this.checkout(request.method ?? 'GET', id, action, form, response);
      if (kind === 'portal' && id) return this.portal(request.method ?? 'GET', id, action, form, response);
    } catch (error) {
      if (!(error instanceof ApiRefusal)) throw error;
      page(response, error.status, 'Not possible', `<p role="alert">${escape(error.message)}</p>`);
      return true;
    }
    return false;
  }

  private checkout(method: string, id: string, action: string | undefined, form: URLSearchParams, response: ServerResponse): boolean {
    const session = this.state.session(id);
    if (method === 'POST' && action === 'pay') {
      const address: Stripe.Address | null = form.get('line1') ? { line1: form.get('line1'), line2: null, postal_code: form.get('postal_code'), city: form.get('city'), state: null, country: form.get('country') } : null;
      this.state.pay(id, address);
      redirect(response, session.success_url!.replace('{CHECKOUT_SESSION_ID}', id));
      return true;
    }
    if (method === 'POST' && action === 'cancel') {
      // as on Stripe's page: the back link only leaves; the session stays open until expired
      redirect(response, session.cancel_url ?? '/');
      return true;
    }
    if (session.status !== 'open') {
      page(response, 410, 'Checkout ended', `<p>This checkout is ${escape(session.status ?? '')}. Go back to the site and start again.</p>`);
      return true;
    }
    const price = this.state.price(session.stand_in.price, 'price');
    const addressFields = session.stand_in.collects_address
      ? `<fieldset><legend>Billing address</legend>
<label>Street <input name="line1" required autocomplete="address-line1"></label>
<label>Postal code <input name="postal_code" required autocomplete="postal-code"></label>
<label>City <input name="city" required autocomplete="address-level2"></label>
<label>Country <select name="country" autocomplete="country">${['DE', 'AT', 'FR', 'PT', 'MC', 'GB'].map((c) => `<option>${c}</option>`).join('')}</select></label>
</fieldset>`
      : '';
    page(
      response,
      200,
      'Subscribe',
      `<p class="stand-in">Stripe stand-in: test mode, no money moves.</p>
<h1>Subscribe to ${escape(price.nickname ?? price.id)}</h1>
<p class="price">${amount(price)} per month <span>plus VAT${session.automatic_tax.enabled ? ', calculated from your address' : ''}</span></p>
<form method="post" action="/checkout/${id}/pay">${addressFields}<button type="submit">Pay</button></form>
<form method="post" action="/checkout/${id}/cancel"><button type="submit" class="secondary">Cancel</button></form>`,
    );
    return true;
  }

  private portal(method: string, id: string, action: string | undefined, form: URLSearchParams, response: ServerResponse): boolean {
    const portal = this.state.portals.get(id);
    if (portal === undefined || portal.expires_at <= this.state.seconds()) {
      page(response, 410, 'Portal link expired', '<p>This portal link has expired. Open the portal again from the site.</p>');
      return true;
    }
    if (method === 'POST') {
      const subscription = this.state.subscription(form.get('subscription') ?? '');
      if (subscription.customer !== portal.customer) throw new ApiRefusal(403, 'This subscription is not this customer’s.');
      if (action === 'cancel') this.state.cancel(subscription.id);
      else if (action === 'switch') this.state.switchPrice(subscription.id, form.get('price') ?? '');
      redirect(response, `/portal/${id}`);
      return true;
    }
    const rows = this.state.subscriptionsOf(portal.customer).map((s) => {
      const price = s.items.data[0].price;
      const live = s.status !== 'canceled' && s.status !== 'incomplete_expired';
      const switches = [...this.state.prices.values()]
        .filter((p) => p.id !== price.id)
        .map((p) => `<form method="post" action="/portal/${id}/switch"><input type="hidden" name="subscription" value="${s.id}"><input type="hidden" name="price" value="${p.id}"><button type="submit" class="secondary">Switch to ${escape(p.nickname ?? p.id)}</button></form>`)
        .join('');
      const cancel = `<form method="post" action="/portal/${id}/cancel"><input type="hidden" name="subscription" value="${s.id}"><button type="submit">Cancel subscription</button></form>`;
      return `<li><h2>${escape(price.nickname ?? price.id)}: <span class="status">${s.status}</span></h2><p>${amount(price)} per month plus VAT</p>${live ? switches + cancel : ''}</li>`;
    });
    const back = portal.return_url ? `<p><a href="${escape(portal.return_url)}">Return to the site</a></p>` : '';
    page(response, 200, 'Billing', `<p class="stand-in">Stripe stand-in: test mode, no money moves.</p><h1>Your subscriptions</h1><ul>${rows.join('') || '<li>None</li>'}</ul>${back}`);
    return true;
  }
}

function amount(price: Price): string {
  return `${((price.unit_amount ?? 0) / 100).toFixed(2)} ${price.currency.toUpperCase()}`;
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function redirect(response: ServerResponse, location: string): void {
  response.writeHead(303, { Location: location });
  response.end();
}

function page(response: ServerResponse, status: number, title: string, body: string): void {
  response.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:30rem;padding:1rem;color:#1a1a1a}
.stand-in{background:#fff4d6;border:1px solid #e0c060;padding:.4rem .6rem;border-radius:.3rem;font-size:.9rem}
.price{font-size:1.25rem}.price span{font-size:1rem;color:#555}
label{display:block;margin:.5rem 0}input,select{display:block;width:100%;padding:.5rem;font:inherit;box-sizing:border-box}
fieldset{border:1px solid #ccc;border-radius:.3rem;margin:1rem 0}
button{font:inherit;padding:.6rem 1.2rem;margin:.3rem 0;border:0;border-radius:.3rem;background:#635bff;color:#fff;min-width:8rem}
button.secondary{background:#e8e8ef;color:#1a1a1a}ul{list-style:none;padding:0}li{border-top:1px solid #ddd;padding:.5rem 0}
</style></head><body><main>${body}</main></body></html>`);
}
