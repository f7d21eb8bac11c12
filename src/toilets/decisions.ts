// Applies a fact settled by votes or a moderator onto a toilet's row, so filters and answers use the
// decided value. Values arrive in the vote table's normal form (see the community module).
import { code, genderBits, refreshTraits, type ToiletTable } from './table.js';
import { ACCESS_RULE } from './facts.js';
import { countryAt, timeZoneAt } from '../geo/where.js';

const RULE = (name: (typeof ACCESS_RULE)[number]) => ACCESS_RULE.indexOf(name);
/** access_rule values that only restate the fee, and so follow a decided fee. */
const FEE_RULES = new Set([RULE('free'), RULE('fee'), RULE('unknown')]);
/** The fee rule by feeRequired + 1 (-1 unknown, 0 free, 1 paid). */
const FEE_RULE_OF = [RULE('unknown'), RULE('free'), RULE('fee')];

export function applyDecision(t: ToiletTable, row: number, attribute: string, value: string): void {
  switch (attribute) {
    case 'access':
      t.access[row] = code.access(value);
      if (value === 'customers' || value === 'scheme') t.accessRule[row] = RULE(value);
      // open to everyone now: a customers/scheme rule no longer holds, the rule restates the fee
      else if (t.accessRule[row] === RULE('customers') || t.accessRule[row] === RULE('scheme')) t.accessRule[row] = FEE_RULE_OF[t.feeRequired[row] + 1];
      break;
    case 'fee':
      t.feeRequired[row] = value === 'paid' ? 1 : 0;
      if (FEE_RULES.has(t.accessRule[row])) t.accessRule[row] = RULE(value === 'paid' ? 'fee' : 'free');
      if (value === 'free') {
        t.feeAmount[row] = Number.NaN;
        t.feeCurrency[row] = null;
      }
      break;
    case 'fee_amount': {
      const [amount, currency] = value.split(' ');
      t.feeAmount[row] = Number(amount);
      t.feeCurrency[row] = currency;
      break;
    }
    case 'wheelchair':
      t.wheelchair[row] = code.wheelchair(value);
      break;
    case 'changing_table':
      t.changingTable[row] = code.changingTable(value);
      break;
    case 'gender':
      t.gender[row] = genderBits(value);
      break;
    case 'opening_hours': {
      const lat = t.lat[row];
      const lon = t.lon[row];
      t.openingHours[row] = value;
      t.hours[row] = null; // compiled on next use
      t.timeZone[row] = timeZoneAt(lat, lon);
      t.country[row] = countryAt(lat, lon);
      break;
    }
    case 'name':
      t.name[row] = value;
      break;
    case 'operator':
      t.operator[row] = value;
      break;
    case 'existence':
      break; // votes never hide a toilet; only a moderator's "gone" does (overlay.gone)
    default:
      throw new Error(`unknown decided attribute ${attribute}`);
  }
  refreshTraits(t, row);
}
