// Applies a fact settled by votes or a moderator onto a toilet's row, so filters and answers use the
// decided value. Values arrive in the vote table's normal form (see the community module). The loaded
// columns are shared by every server thread and never written: a decided column is this thread's own
// copy (writable()).
import { code, genderBits, refreshTraits, writable, type ToiletTable } from './table.js';
import { ACCESS_RULE } from '../rules/facts.js';
import { countryAt, timeZoneAt } from '../geo/where.js';

const RULE = (name: (typeof ACCESS_RULE)[number]) => ACCESS_RULE.indexOf(name);
/** access_rule values that only restate the fee, and so follow a decided fee. */
const FEE_RULES = new Set([RULE('free'), RULE('fee'), RULE('unknown')]);
/** The fee rule by feeRequired + 1 (-1 unknown, 0 free, 1 paid). */
const FEE_RULE_OF = [RULE('unknown'), RULE('free'), RULE('fee')];

export function applyDecision(t: ToiletTable, row: number, attribute: string, value: string): void {
  switch (attribute) {
    case 'access': {
      const rule = writable(t, 'accessRule');
      writable(t, 'access')[row] = code.access(value);
      if (value === 'customers' || value === 'scheme') rule[row] = RULE(value);
      // open to everyone now: a customers/scheme rule no longer holds, the rule restates the fee
      else if (rule[row] === RULE('customers') || rule[row] === RULE('scheme')) rule[row] = FEE_RULE_OF[t.feeRequired[row] + 1];
      break;
    }
    case 'fee': {
      const rule = writable(t, 'accessRule');
      writable(t, 'feeRequired')[row] = value === 'paid' ? 1 : 0;
      if (FEE_RULES.has(rule[row])) rule[row] = RULE(value === 'paid' ? 'fee' : 'free');
      if (value === 'free') {
        writable(t, 'feeAmount')[row] = Number.NaN;
        writable(t, 'feeCurrency').set(row, null);
      }
      break;
    }
    case 'fee_amount': {
      const [amount, currency] = value.split(' ');
      writable(t, 'feeAmount')[row] = Number(amount);
      writable(t, 'feeCurrency').set(row, currency);
      break;
    }
    case 'wheelchair':
      writable(t, 'wheelchair')[row] = code.wheelchair(value);
      break;
    case 'changing_table':
      writable(t, 'changingTable')[row] = code.changingTable(value);
      break;
    case 'gender':
      writable(t, 'gender')[row] = genderBits(value);
      break;
    case 'opening_hours': {
      const lat = t.lat[row];
      const lon = t.lon[row];
      writable(t, 'openingHours').set(row, value);
      t.hours.delete(row); // compiled on next use
      writable(t, 'timeZone').set(row, timeZoneAt(lat, lon));
      writable(t, 'country').set(row, countryAt(lat, lon));
      break;
    }
    case 'name':
      writable(t, 'name').set(row, value);
      break;
    case 'operator':
      writable(t, 'operator').set(row, value);
      break;
    case 'existence':
      break; // votes never hide a toilet; only a moderator's "gone" does (overlay.gone)
    default:
      throw new Error(`unknown decided attribute ${attribute}`);
  }
  refreshTraits(t, row);
}
