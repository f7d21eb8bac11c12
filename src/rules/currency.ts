// Doc §2.5 steps 2–4 and 6: currency words and symbols, the currency of each country, minor units.

/** ISO 4217 code → ISO 3166-1 alpha-2 countries whose everyday prices are in it (as of 2026). */
const COUNTRIES_BY_CURRENCY: Readonly<Record<string, string>> = {
  EUR: 'AD AT AX BE BG BL CY DE EE ES FI FR GF GP GR HR IE IT LT LU LV MC ME MF MQ MT NL PM PT RE SI SK SM TF VA XK YT',
  USD: 'AS BQ EC FM GU IO MH MP PA PR PW SV TC TL UM US VG VI ZW',
  XCD: 'AG AI DM GD KN LC MS VC',
  AUD: 'AU CC CX HM KI NF NR TV',
  NZD: 'CK NU NZ PN TK',
  GBP: 'GB GG GS IM JE',
  DKK: 'DK FO GL',
  NOK: 'BV NO SJ',
  CHF: 'CH LI',
  XOF: 'BF BJ CI GW ML NE SN TG',
  XAF: 'CF CG CM GA GQ TD',
  XPF: 'NC PF WF',
  ILS: 'IL PS',
  MAD: 'EH MA',
  XCG: 'CW SX',
  AED: 'AE', AFN: 'AF', ALL: 'AL', AMD: 'AM', AOA: 'AO', ARS: 'AR', AWG: 'AW', AZN: 'AZ', BAM: 'BA',
  BBD: 'BB', BDT: 'BD', BHD: 'BH', BIF: 'BI', BMD: 'BM', BND: 'BN', BOB: 'BO', BRL: 'BR', BSD: 'BS',
  BTN: 'BT', BWP: 'BW', BYN: 'BY', BZD: 'BZ', CAD: 'CA', CDF: 'CD', CLP: 'CL', CNY: 'CN', COP: 'CO',
  CRC: 'CR', CUP: 'CU', CVE: 'CV', CZK: 'CZ', DJF: 'DJ', DOP: 'DO', DZD: 'DZ', EGP: 'EG', ERN: 'ER',
  ETB: 'ET', FJD: 'FJ', FKP: 'FK', GEL: 'GE', GHS: 'GH', GIP: 'GI', GMD: 'GM', GNF: 'GN', GTQ: 'GT',
  GYD: 'GY', HKD: 'HK', HNL: 'HN', HTG: 'HT', HUF: 'HU', IDR: 'ID', INR: 'IN', IQD: 'IQ', IRR: 'IR',
  ISK: 'IS', JMD: 'JM', JOD: 'JO', JPY: 'JP', KES: 'KE', KGS: 'KG', KHR: 'KH', KMF: 'KM', KPW: 'KP',
  KRW: 'KR', KWD: 'KW', KYD: 'KY', KZT: 'KZ', LAK: 'LA', LBP: 'LB', LKR: 'LK', LRD: 'LR', LSL: 'LS',
  LYD: 'LY', MDL: 'MD', MGA: 'MG', MKD: 'MK', MMK: 'MM', MNT: 'MN', MOP: 'MO', MRU: 'MR', MUR: 'MU',
  MVR: 'MV', MWK: 'MW', MXN: 'MX', MYR: 'MY', MZN: 'MZ', NAD: 'NA', NGN: 'NG', NIO: 'NI', NPR: 'NP',
  OMR: 'OM', PEN: 'PE', PGK: 'PG', PHP: 'PH', PKR: 'PK', PLN: 'PL', PYG: 'PY', QAR: 'QA', RON: 'RO',
  RSD: 'RS', RUB: 'RU', RWF: 'RW', SAR: 'SA', SBD: 'SB', SCR: 'SC', SDG: 'SD', SEK: 'SE', SGD: 'SG',
  SHP: 'SH', SLE: 'SL', SOS: 'SO', SRD: 'SR', SSP: 'SS', STN: 'ST', SYP: 'SY', SZL: 'SZ', THB: 'TH',
  TJS: 'TJ', TMT: 'TM', TND: 'TN', TOP: 'TO', TRY: 'TR', TTD: 'TT', TWD: 'TW', TZS: 'TZ', UAH: 'UA',
  UGX: 'UG', UYU: 'UY', UZS: 'UZ', VES: 'VE', VND: 'VN', VUV: 'VU', WST: 'WS', YER: 'YE', ZAR: 'ZA',
  ZMW: 'ZM',
};

const CURRENCY_OF_COUNTRY: ReadonlyMap<string, string> = new Map(
  Object.entries(COUNTRIES_BY_CURRENCY).flatMap(([currency, countries]) => countries.split(' ').map((c) => [c, currency] as const)),
);

/** ISO 4217 currency of an ISO 3166-1 alpha-2 country (upper case), or null. */
export function currencyOfCountry(country: string | null): string | null {
  return country === null ? null : (CURRENCY_OF_COUNTRY.get(country) ?? null);
}

/** Currencies written with a bare `$`. */
const DOLLAR_CURRENCIES = new Set([
  'USD', 'CAD', 'AUD', 'NZD', 'MXN', 'SGD', 'HKD', 'TWD', 'ARS', 'CLP', 'COP', 'UYU', 'CUP', 'DOP', 'JMD',
  'TTD', 'BSD', 'BBD', 'BZD', 'BMD', 'KYD', 'FJD', 'GYD', 'LRD', 'NAD', 'SBD', 'SRD', 'BND', 'XCD',
]);
/** Currencies written `kr`. */
const KRONA_CURRENCIES = new Set(['SEK', 'NOK', 'DKK', 'ISK']);

/** How a currency word or symbol resolves. */
export type CurrencyToken =
  | { readonly kind: 'fixed'; readonly currency: string }
  /** `$`, `kr`, `¥`, cents: depends on the toilet's country */
  | { readonly kind: 'dollar' | 'krona' | 'yen' | 'cent' }
  /** GBP pence */
  | { readonly kind: 'pence' };

const FIXED_WORDS: Readonly<Record<string, string>> = {
  '€': 'EUR', euro: 'EUR', euros: 'EUR',
  '£': 'GBP',
  '₹': 'INR', '₺': 'TRY', '₽': 'RUB', '₩': 'KRW', '₪': 'ILS', '₴': 'UAH', '₫': 'VND', '฿': 'THB',
  '₱': 'PHP', '₦': 'NGN', '₸': 'KZT', '₾': 'GEL', '円': 'JPY', '元': 'CNY',
  'zł': 'PLN', zl: 'PLN', 'kč': 'CZK', ft: 'HUF', lei: 'RON', 'лв': 'BGN',
  fr: 'CHF', sfr: 'CHF',
  'us$': 'USD', 'ca$': 'CAD', 'a$': 'AUD', 'au$': 'AUD', 'nz$': 'NZD', 'hk$': 'HKD', 's$': 'SGD', 'mx$': 'MXN', 'r$': 'BRL',
};

/** Lower-case word or symbol (trailing dot removed) → token. ISO codes come from the runtime's currency list. */
const TOKENS: ReadonlyMap<string, CurrencyToken> = new Map<string, CurrencyToken>([
  ...Intl.supportedValuesOf('currency').map((code) => [code.toLowerCase(), { kind: 'fixed', currency: code }] as const),
  ...Object.entries(FIXED_WORDS).map(([word, currency]) => [word, { kind: 'fixed', currency }] as const),
  ['$', { kind: 'dollar' }],
  ['kr', { kind: 'krona' }],
  ['¥', { kind: 'yen' }],
  ...['c', 'ct', 'cent', 'cents', '¢'].map((word) => [word, { kind: 'cent' }] as const),
  ...['p', 'pence'].map((word) => [word, { kind: 'pence' }] as const),
]);

const TRAILING_DOTS = /\.+$/;

/** The token for a lower-case currency word or symbol, or undefined when it names no currency. */
export function currencyToken(word: string): CurrencyToken | undefined {
  return TOKENS.get(word.replace(TRAILING_DOTS, ''));
}

/**
 * The currency a token stands for at a toilet in `country`. `$` and `kr` resolve only where the
 * country uses them; cents are the country's when it counts in cents, euro cents when the country is
 * unknown (the wiki's reading), and null in any other country.
 */
export function resolveToken(token: CurrencyToken, country: string | null): string | null {
  switch (token.kind) {
    case 'fixed':
      return token.currency;
    case 'pence':
      return 'GBP';
    case 'yen':
      return country === 'CN' ? 'CNY' : 'JPY';
    case 'dollar': {
      const local = currencyOfCountry(country);
      return local !== null && DOLLAR_CURRENCIES.has(local) ? local : null;
    }
    case 'krona': {
      const local = currencyOfCountry(country);
      return local !== null && KRONA_CURRENCIES.has(local) ? local : null;
    }
    case 'cent': {
      if (country === null) return 'EUR';
      const local = currencyOfCountry(country);
      return local !== null && (local === 'EUR' || DOLLAR_CURRENCIES.has(local)) ? local : null;
    }
  }
}

/** 100 for tokens that count minor units (50p, 50 ct), else 1. */
export function tokenDivisor(token: CurrencyToken): number {
  return token.kind === 'pence' || token.kind === 'cent' ? 100 : 1;
}

const minorDigitsCache = new Map<string, number>();

/** Decimal places of a currency's minor unit (JPY 0, EUR 2, KWD 3), from the runtime's CLDR data. */
export function minorDigits(currency: string): number {
  let digits = minorDigitsCache.get(currency);
  if (digits === undefined) {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    minorDigitsCache.set(currency, digits);
  }
  return digits;
}
