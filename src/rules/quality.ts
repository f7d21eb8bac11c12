// verification_state and confidence: the two answers to "can I trust this entry?", computed in one place
// for every answer. Documented for users in docs/DATA.md; keep the two in step.
//
// verification_state, strongest first: disputed (an open report says gone/closed/wrong) > partner_confirmed
// (a running partner listing) > community_confirmed (a confirmation in the last 12 months) > source_claimed
// (the source was checked on the ground within 24 months) > unverified.
//
// confidence starts at medium; a check within 24 months or two confirmations in 12 months raise it one
// step; each doubt lowers it one step: a guessed currency, unreadable hours, holiday rules with no holiday
// calendar for the region, a fixme note, a check older than five years (or none, on an object untouched
// for five years), and a scheme membership not checked for two years. Access guessed from "a street toilet
// is public" caps it at medium (tag doc §2.2; most toilets carry no access tag, so a step down would call
// the ordinary street toilet doubtful). A toilet whose source says it is closed for good is always low.
import { CONFIDENCE, QualityFlag, VERIFICATION_STATE, type Confidence, type VerificationState } from './facts.js';

export interface QualityInputs {
  /** YYYY-MM of the last check in the source. */
  checked: string | null;
  quality: number;
  /** Epoch seconds of the last edit, 0 when unknown. */
  lastEdited: number;
  confirmations: number;
  disputed: boolean;
  partnerRunning: boolean;
}

const DOUBTS = QualityFlag.CurrencyInferred | QualityFlag.HoursUnparseable | QualityFlag.HolidaysUnresolved | QualityFlag.Fixme;

export function verificationState(q: QualityInputs, nowMs: number): VerificationState {
  if (q.disputed) return 'disputed';
  if (q.partnerRunning) return 'partner_confirmed';
  if (q.confirmations > 0) return 'community_confirmed';
  if (q.checked !== null && monthsSince(q.checked, nowMs) <= 24) return 'source_claimed';
  return 'unverified';
}

export function confidence(q: QualityInputs, nowMs: number): Confidence {
  if (q.quality & QualityFlag.LikelyClosed) return 'low';
  let level = 1;
  const checkAge = q.checked === null ? null : monthsSince(q.checked, nowMs);
  if ((checkAge !== null && checkAge <= 24) || q.confirmations >= 2) level++;
  for (let doubts = q.quality & DOUBTS; doubts !== 0; doubts &= doubts - 1) level--;
  const editAgeMonths = editAge(q.lastEdited, nowMs);
  if (checkAge !== null ? checkAge > 60 : editAgeMonths !== null && editAgeMonths > 60) level--;
  if (q.quality & QualityFlag.Scheme) {
    const age = checkAge ?? editAgeMonths;
    if (age === null || age > 24) level--;
  }
  if (q.quality & QualityFlag.AccessInferred) level = Math.min(level, 1);
  return CONFIDENCE[Math.max(0, Math.min(2, level))];
}

/** Whole months from a YYYY-MM month to now (0 for the current month). */
export function monthsSince(yearMonth: string, nowMs: number): number {
  const now = new Date(nowMs);
  const year = Number(yearMonth.slice(0, 4));
  const month = Number(yearMonth.slice(5, 7));
  return (now.getUTCFullYear() - year) * 12 + (now.getUTCMonth() + 1 - month);
}

/** verification_state and confidence as one number, `state * CONFIDENCE.length + confidence` (positions in VERIFICATION_STATE and CONFIDENCE). */
export function qualityCode(q: QualityInputs, nowMs: number): number {
  return VERIFICATION_STATE.indexOf(verificationState(q, nowMs)) * CONFIDENCE.length + CONFIDENCE.indexOf(confidence(q, nowMs));
}

/** Months since the last edit (epoch seconds, 0 when unknown), null when unknown. */
function editAge(lastEdited: number, nowMs: number): number | null {
  return lastEdited > 0 ? (nowMs / 1000 - lastEdited) / (86400 * 30.44) : null;
}

/**
 * The qualityCode of toilets without overlay data (no confirmations, disputes or partner), computed once
 * per combination of what it depends on at `nowMs`: the check month, the quality flags (a byte) and the
 * edit age as far as the rules above tell ages apart (unknown, up to 24 months, up to 60, older). A
 * refresh of every toilet at a million meets a few thousand combinations.
 */
export class SourceQuality {
  private readonly known = new Map<number, number>();

  constructor(private readonly nowMs: number) {}

  /** `checkedCode`: the check month's code in its text column (the same code, the same month). */
  of(checkedCode: number, checked: string | null, quality: number, lastEdited: number): number {
    const age = editAge(lastEdited, this.nowMs);
    const ageClass = age === null ? 0 : age <= 24 ? 1 : age <= 60 ? 2 : 3;
    const key = (checkedCode * 256 + quality) * 4 + ageClass;
    let known = this.known.get(key);
    if (known === undefined) {
      known = qualityCode({ checked, quality, lastEdited, confirmations: 0, disputed: false, partnerRunning: false }, this.nowMs);
      this.known.set(key, known);
    }
    return known;
  }
}
