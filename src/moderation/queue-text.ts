// The queues as `npm run moderate -- list` prints them without --json: each queue's count, then one line
// per entry with the context a moderator decides by (toilets nearby, the toilet reported, the other claims).
import type { FactLock, GoneVotes, QueuedReport, QueuedSubmission } from './moderation.js';
import type { QueuedClaim } from '../partners/claims.js';

export interface Queues {
  submissions?: QueuedSubmission[];
  reports?: QueuedReport[];
  gone_votes?: GoneVotes[];
  claims?: QueuedClaim[];
  locks?: FactLock[];
}

export function describeQueues(queues: Queues): string {
  return [...submissionLines(queues.submissions), ...reportLines(queues.reports), ...goneVoteLines(queues.gone_votes), ...claimLines(queues.claims), ...lockLines(queues.locks)].join('\n');
}

function submissionLines(submissions: QueuedSubmission[] | undefined): string[] {
  if (!submissions) return [];
  const lines = [`Submissions waiting: ${submissions.length}`];
  for (const s of submissions) {
    const facts = [s.access && `access ${s.access}`, s.fee && `fee ${s.fee}`, s.opening_hours && `hours "${s.opening_hours}"`, s.wheelchair && `wheelchair ${s.wheelchair}`, s.changing_table && `changing table ${s.changing_table}`].filter(Boolean);
    lines.push(`  ${s.id}  ${s.submitted_at}  ${s.name ?? '(no name)'} at ${s.lat},${s.lon}  ${facts.join(', ')}`);
    if (s.note) lines.push(`      note: ${s.note}`);
    lines.push(s.nearby.length ? `      already listed nearby: ${s.nearby.map((n) => `${n.id} ${n.name ?? '(no name)'} ${n.distance_m} m`).join('; ')}` : '      nothing listed within 100 m');
  }
  return lines;
}

function reportLines(reports: QueuedReport[] | undefined): string[] {
  if (!reports) return [];
  const lines = [`Reports open: ${reports.length}`];
  for (const r of reports) {
    const toilet = r.toilet ? `${r.toilet.name ?? '(no name)'} at ${r.toilet.lat},${r.toilet.lon} (${r.toilet.source}${r.toilet.gone ? ', marked gone' : ''})` : 'not in the current data';
    lines.push(`  ${r.id}  ${r.reported_at}  ${r.kind}  ${r.toilet_id}: ${toilet}  ${r.open_reports} open report${r.open_reports === 1 ? '' : 's'} on it`);
    if (r.note) lines.push(`      note: ${r.note}`);
  }
  return lines;
}

function goneVoteLines(votes: GoneVotes[] | undefined): string[] {
  if (!votes) return [];
  return [
    `Toilets most voters call gone (votes hide nothing; decide with \`gone\` or \`lock <id> existence yes\`): ${votes.length}`,
    ...votes.map((g) => `  ${g.toilet_id}  ${g.name ?? '(no name)'}  ${g.gone_votes} gone, ${g.exists_votes} exists`),
  ];
}

function claimLines(claims: QueuedClaim[] | undefined): string[] {
  if (!claims) return [];
  const lines = [`Business claims waiting: ${claims.length}`];
  for (const c of claims) {
    const toilet = c.toilet ? `${c.toilet.name ?? '(no name)'} at ${c.toilet.lat},${c.toilet.lon}${c.toilet.gone ? ' (marked gone)' : ''}` : 'not in the current data';
    lines.push(`  ${c.id}  ${c.claimed_at}  "${c.business_name}" claims ${c.toilet_id}: ${toilet}  (listing ${c.listing_id}, account ${c.account_id ?? 'deleted'})`);
    lines.push(`      contact: ${[c.contact_email, c.contact_phone, c.website].filter(Boolean).join(', ') || 'none left'}`);
    if (c.note) lines.push(`      note: ${c.note}`);
    lines.push(c.other_claims.length ? `      other claims on it: ${c.other_claims.map((o) => `${o.id} ${o.status} "${o.business_name}"`).join('; ')}` : '      no other claim on it');
  }
  return lines;
}

function lockLines(locks: FactLock[] | undefined): string[] {
  if (!locks) return [];
  return [`Locks in force (undo with \`unlock <id> <fact>\`): ${locks.length}`, ...locks.map((l) => `  ${l.toilet_id}  ${l.name ?? '(no name)'}  ${l.fact} = ${l.value}  since ${l.locked_at}`)];
}
