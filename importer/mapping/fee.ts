// Doc §2.5: the fee object (required, amount, currency) from fee/charge or toilets:fee/toilets:charge.

import type { Fee } from '../../src/rules/facts.js';
import { parseCharge, isConditionOnly, type Charge } from './charge.js';
import { ABSENT, codeOf, codeTable, keyPair, normaliseEnum, type Tags } from './tags.js';

const PAID = 0;
const FREE = 1;
const FEE_VALUES = codeTable({
  yes: PAID,
  interval: PAID,
  no: FREE,
  free: FREE,
  donation: FREE,
  voluntary: FREE,
  unknown: ABSENT,
});

const FEE = keyPair('fee');
const CHARGE = keyPair('charge');

interface FeeStatement {
  required: boolean | null;
  /** An amount written into `fee` ("50p"). */
  charge: Charge | null;
}

const NO_STATEMENT: FeeStatement = Object.freeze({ required: null, charge: null });
const PAID_STATEMENT: FeeStatement = Object.freeze({ required: true, charge: null });
const FREE_STATEMENT: FeeStatement = Object.freeze({ required: false, charge: null });

/** What one `fee` value says: yes/no words, an amount, or a time range (→ paid). */
function feeStatement(value: string | undefined, country: string | null): FeeStatement {
  const code = codeOf(value, FEE_VALUES);
  if (code === PAID) return PAID_STATEMENT;
  if (code === FREE) return FREE_STATEMENT;
  if (value === undefined || code === ABSENT) return NO_STATEMENT;
  const charge = parseCharge(value, country);
  if (charge !== null) return { required: charge.amount > 0, charge };
  return isConditionOnly(normaliseEnum(value)) ? PAID_STATEMENT : NO_STATEMENT;
}

function readCharge(tags: Tags, host: boolean, country: string | null): Charge | null {
  const scoped = tags[CHARGE.scoped];
  const fromScoped = scoped === undefined ? null : parseCharge(scoped, country);
  if (host || fromScoped !== null) return fromScoped;
  const plain = tags[CHARGE.plain];
  return plain === undefined ? null : parseCharge(plain, country);
}

export interface FeeReading {
  fee: Fee;
  currencyInferred: boolean;
}

const UNKNOWN_FEE: FeeReading = Object.freeze({ fee: Object.freeze({ required: null, amount: null, currency: null }), currencyInferred: false });
const PAID_FEE: FeeReading = Object.freeze({ fee: Object.freeze({ required: true, amount: null, currency: null }), currencyInferred: false });
const FREE_FEE: FeeReading = Object.freeze({ fee: Object.freeze({ required: false, amount: null, currency: null }), currencyInferred: false });

/**
 * `required` comes from `fee` (the toilets: key first on a standalone toilet, only it on a host), else
 * from `access=fee`, else from whether the charge is above 0. The amount comes from `charge`, else from
 * an amount in `fee`, and is dropped when it contradicts `required` (doc §2.5 step 7).
 * Amountless results are shared frozen objects: the importer builds a million of them.
 */
export function readFee(tags: Tags, host: boolean, country: string | null, accessSaysFee: boolean): FeeReading {
  let statement = feeStatement(tags[FEE.scoped], country);
  if (!host && statement.required === null) statement = feeStatement(tags[FEE.plain], country);
  const charge = readCharge(tags, host, country) ?? statement.charge;
  const required = statement.required ?? (accessSaysFee ? true : charge === null ? null : charge.amount > 0);
  const consistent = charge !== null && (required === null || required === (charge.amount > 0));
  if (consistent) {
    return { fee: { required, amount: charge.amount, currency: charge.currency }, currencyInferred: charge.currencyInferred };
  }
  return required === null ? UNKNOWN_FEE : required ? PAID_FEE : FREE_FEE;
}
