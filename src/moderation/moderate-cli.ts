// npm run moderate -- <command>: the moderator's command line (see README, "Contributions and moderation").
// It works on the same databases as the server (TOILETS_DB, OVERLAY_DB or with DATABASE_URL PostgreSQL,
// ACCOUNTS_DB), opened and migrated as the server does; every running server shows each action within
// about a second. main() takes the arguments,
// environment and output streams, so the tests run the command in their own process; run as a script, it is
// given the process's own.
import type { Console } from 'node:console';
import { loadConfig, ConfigError } from '../config.js';
import { jsonLogger } from '../log.js';
import { ToiletCatalog } from '../toilets/catalog.js';
import { Community } from '../community/community.js';
import { openStorage, type Storage } from '../stores.js';
import { moderationStoreOf } from './store-choice.js';
import { Moderation, ModerationError, type FactLock, type GoneVotes, type QueuedReport, type QueuedSubmission } from './moderation.js';
import { storageTrouble } from '../storage/errors.js';
import { NewerDatabaseError } from '../storage/migrations.js';
import { AccountsStore } from '../accounts/store.js';
import { ACCOUNTS_DATABASE } from '../databases.js';
import { commandConsole, parseCommand, processIo, runAsScript, usageFailure, UsageError, type CommandIo } from '../cli/command.js';
import { AccountModeration } from './account-moderation.js';
import { ClaimModeration } from './claim-moderation.js';
import { AccountEventLog } from '../accounts/event-log.js';
import { PartnerStore } from '../partners/store.js';
import type { QueuedClaim } from '../partners/claims.js';

const COMMAND = {
  name: 'moderate',
  help: `usage: npm run moderate -- <command> [--reason TEXT] [--limit N] [--json] [--help]
  list [submissions|reports|gone-votes|claims|locks]  the queues, with context, and the locks in force
  approve <sub_N|rep_N> --reason TEXT             a submission becomes toilet c_N; a report is closed
  approve <claim id> [--name NAME] --reason TEXT  a business claim (--name corrects what partner.name shows);
                                                  rejects the other pending claims on the toilet
  reject <sub_N|rep_N|claim id> --reason TEXT     (a claim's reason is shown to the business)
  plan <listing id> basic|plus|none --reason TEXT set a partner listing's plan by hand (not over a Stripe subscription)
  lock <toilet id> <fact> <value> --reason TEXT   show this value whatever the votes say
  unlock <toilet id> <fact> --reason TEXT         let votes (or the source) decide again
  gone <toilet id> --reason TEXT                  hide the toilet everywhere (undo: unlock <id> existence)
  log [--limit N]                                 the latest moderator actions
  moderators list                                 the accounts with the moderator role
  moderators add <account> --reason TEXT          grant the role (<account>: the acc_… id only, from the account page)
  moderators remove <account> --reason TEXT       withdraw it; ends the account's sessions
  accounts recovery-link <account> --reason TEXT  a single-use link (15 minutes) that registers a new passkey
<account>: the acc_… id only, which the account's owner reads on their account page (e-mail addresses are not verified)
facts: access, fee, fee_amount, wheelchair, changing_table, gender, opening_hours, name, operator, existence
--json prints machine-readable output. Exit codes: 0 done, 1 refused (the message says why), 2 wrong arguments.`,
  options: { reason: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' }, name: { type: 'string' } },
  positionals: { min: 1, max: 4, what: 'a command and its arguments' },
} as const;

/** Each command's words after its name, as the help writes them, and whether it changes something (recorded with --reason). */
const COMMANDS: Record<string, { words: string[]; optional?: number; changes: boolean; run: Subcommand }> = {
  list: { words: ['[submissions|reports|gone-votes|claims|locks]'], optional: 1, changes: false, run: listQueues },
  approve: { words: ['<sub_N|rep_N|claim id>'], changes: true, run: decide },
  reject: { words: ['<sub_N|rep_N|claim id>'], changes: true, run: decide },
  plan: { words: ['<listing id>', 'basic|plus|none'], changes: true, run: setPlan },
  lock: { words: ['<toilet id>', '<fact>', '<value>'], changes: true, run: lockFact },
  unlock: { words: ['<toilet id>', '<fact>'], changes: true, run: unlockFact },
  gone: { words: ['<toilet id>'], changes: true, run: markGone },
  log: { words: [], changes: false, run: showLog },
  // list needs no reason, add and remove do: checked with the subcommand
  moderators: { words: ['list|add|remove', '[<account>]'], optional: 1, changes: false, run: moderators },
  accounts: { words: ['recovery-link', '<account>'], changes: true, run: recoveryLink },
};

/** What a subcommand works with: its words, the options, the moderation modules, and how to answer. */
interface Session {
  command: string;
  args: string[];
  values: { reason?: string; limit?: string; json?: boolean; name?: string };
  moderation: Moderation;
  claims: ClaimModeration;
  accounts: AccountModeration;
  console: Console;
  /** Prints `result` as JSON with --json, else as `text()`. */
  show(result: unknown, text: () => string): void;
}

/** One subcommand: done (0), or the exit code of a usage failure; a refusal throws. */
type Subcommand = (session: Session) => number | Promise<number>;

/** Runs the command `argv` (the words after `npm run moderate --`); returns its exit code. */
export async function main(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const console = commandConsole(io);
  const parsed = parseCommand(COMMAND, argv, console);
  if (typeof parsed === 'number') return parsed;
  const { positionals: [command, ...args], values } = parsed;
  const spec = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (spec === undefined) return usageFailure(COMMAND, `unknown command ${JSON.stringify(command)}: write one of ${Object.keys(COMMANDS).join(', ')}`, console);
  if (args.length > spec.words.length || args.length < spec.words.length - (spec.optional ?? 0)) {
    return usageFailure(COMMAND, `write ${['moderate --', command, ...spec.words].join(' ')}${spec.changes ? ' --reason "TEXT"' : ''}`, console);
  }
  if (spec.changes && (values.reason ?? '').trim() === '') {
    return usageFailure(COMMAND, `${command} needs --reason "TEXT" (why, in a few words): every action is recorded with one`, console);
  }
  const log = jsonLogger(io.stderr, io.stderr);
  let storage: Storage | null = null;
  let community: Community | null = null;
  let accounts: AccountsStore | null = null;
  try {
    const config = loadConfig(io.env);
    storage = await openStorage(config, log);
    community = new Community(config, log, Date.now, storage.overlay ?? undefined);
    accounts = new AccountsStore(config.accountsDb, ACCOUNTS_DATABASE);
    const catalog = new ToiletCatalog(config.toiletsDb, community.overlay, log, Date.now);
    catalog.load();
    const moderation = new Moderation(moderationStoreOf(community.store), catalog, Date.now, { baseUrl: config.baseUrl, osmNotesApi: config.osmNotesApi });
    const accountModeration = new AccountModeration(moderation, accounts, Date.now, config.baseUrl);
    // a running server notices these commits by the accounts database's data_version (src/partners/partners.ts)
    const claimModeration = new ClaimModeration(moderation, { store: new PartnerStore(accounts), events: new AccountEventLog(accounts.db, Date.now), now: Date.now, toilets: catalog, changed: () => {} });
    if (values.name !== undefined && command !== 'approve') throw new UsageError('--name goes with approve <claim id> only');
    const show = (result: unknown, text: () => string) => console.log(values.json ? JSON.stringify(result, null, 2) : text());
    return await spec.run({ command, args, values, moderation, claims: claimModeration, accounts: accountModeration, console, show });
  } catch (error) {
    return fail(error, console);
  } finally {
    await community?.close();
    accounts?.close();
    await storage?.close();
  }
}

async function listQueues({ args, moderation, claims, show }: Session): Promise<number> {
  const which = args[0] ?? 'all';
  if (!['all', 'submissions', 'reports', 'gone-votes', 'claims', 'locks'].includes(which)) throw new UsageError('list takes submissions, reports, gone-votes, claims, locks or nothing');
  const queues = {
    ...(which === 'all' || which === 'submissions' ? { submissions: await moderation.submissions() } : {}),
    ...(which === 'all' || which === 'reports' ? { reports: await moderation.reports() } : {}),
    ...(which === 'all' || which === 'gone-votes' ? { gone_votes: moderation.goneVotes() } : {}),
    ...(which === 'all' || which === 'claims' ? { claims: claims.pending() } : {}),
    ...(which === 'all' || which === 'locks' ? { locks: await moderation.locks() } : {}),
  };
  show(queues, () => describeQueues(queues));
  return 0;
}

/** approve or reject: a submission, a report or a business claim. */
async function decide({ command, args: [target], values, moderation, claims, show }: Session): Promise<number> {
  const claim = target.startsWith('clm_');
  if (values.name !== undefined && !claim) throw new UsageError('--name goes with approve <claim id> only');
  const reason = values.reason ?? '';
  const done = await (claim
    ? command === 'approve'
      ? claims.approve(target, reason, values.name)
      : claims.reject(target, reason)
    : command === 'approve'
      ? moderation.approve(target, reason)
      : moderation.reject(target, reason));
  show({ done }, () => done);
  return 0;
}

async function setPlan({ args: [listing, tier], values, claims, show }: Session): Promise<number> {
  const done = await claims.plan(listing, tier, values.reason ?? '');
  show({ done }, () => done);
  return 0;
}

async function lockFact({ args: [id, fact, value], values, moderation, show }: Session): Promise<number> {
  const done = await moderation.lock(id, fact, value, values.reason ?? '');
  show({ done }, () => done);
  return 0;
}

async function unlockFact({ args: [id, fact], values, moderation, show }: Session): Promise<number> {
  const done = await moderation.unlock(id, fact, values.reason ?? '');
  show({ done }, () => done);
  return 0;
}

async function markGone({ args: [id], values, moderation, show }: Session): Promise<number> {
  const done = await moderation.markGone(id, values.reason ?? '');
  show({ done }, () => done);
  return 0;
}

async function showLog({ values, moderation, show }: Session): Promise<number> {
  const limit = Number(values.limit ?? 20);
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit takes a whole number from 1');
  const entries = await moderation.history(limit);
  show(entries, () => entries.map((e) => `${e.at}  ${e.action} ${e.target}  "${e.reason}"  ${JSON.stringify(e.details)}`).join('\n') || 'no actions yet');
  return 0;
}

async function moderators({ args, values, accounts, console, show }: Session): Promise<number> {
  const [which, who] = args;
  const reason = values.reason ?? '';
  if (which === 'list' && args.length === 1) {
    const moderators = accounts.moderators();
    show(moderators, () => moderators.map((m) => `${m.id}  ${m.display_name}  (account since ${m.created_at})`).join('\n') || 'no moderators yet');
    return 0;
  }
  if ((which === 'add' || which === 'remove') && args.length === 2) {
    if (reason.trim() === '') return usageFailure(COMMAND, `moderators ${which} needs --reason "TEXT" (why, in a few words): every action is recorded with one`, console);
    const done = await (which === 'add' ? accounts.grant(who, reason) : accounts.withdraw(who, reason));
    show({ done }, () => done);
    return 0;
  }
  return usageFailure(COMMAND, 'write moderate -- moderators list, moderators add <account> --reason "TEXT" or moderators remove <account> --reason "TEXT"', console);
}

async function recoveryLink({ args: [which, who], values, accounts, console, show }: Session): Promise<number> {
  if (which !== 'recovery-link') return usageFailure(COMMAND, 'write moderate -- accounts recovery-link <account> --reason "TEXT"', console);
  const link = await accounts.recoveryLink(who, values.reason ?? '');
  show(link, () => `${link.url}\nworks once, until ${link.expires_at}, for ${link.account}: give it to the account's owner over a channel you trust`);
  return 0;
}

function fail(error: unknown, console: Console): number {
  if (error instanceof UsageError) {
    return usageFailure(COMMAND, error.message, console);
  }
  if (error instanceof ModerationError || error instanceof ConfigError || error instanceof NewerDatabaseError) {
    console.error(error.message);
    return 1;
  }
  const trouble = storageTrouble(error);
  if (trouble !== null) {
    // every action is one transaction: refused whole
    console.error(`the overlay database cannot be changed now: ${trouble} (${(error as Error).message}); nothing was changed, run the command again once that is mended`);
    return 1;
  }
  console.error((error as Error).stack ?? String(error));
  return 1;
}

function describeQueues(queues: { submissions?: QueuedSubmission[]; reports?: QueuedReport[]; gone_votes?: GoneVotes[]; claims?: QueuedClaim[]; locks?: FactLock[] }): string {
  const lines: string[] = [];
  if (queues.submissions) {
    lines.push(`Submissions waiting: ${queues.submissions.length}`);
    for (const s of queues.submissions) {
      const facts = [s.access && `access ${s.access}`, s.fee && `fee ${s.fee}`, s.opening_hours && `hours "${s.opening_hours}"`, s.wheelchair && `wheelchair ${s.wheelchair}`, s.changing_table && `changing table ${s.changing_table}`].filter(Boolean);
      lines.push(`  ${s.id}  ${s.submitted_at}  ${s.name ?? '(no name)'} at ${s.lat},${s.lon}  ${facts.join(', ')}`);
      if (s.note) lines.push(`      note: ${s.note}`);
      lines.push(s.nearby.length ? `      already listed nearby: ${s.nearby.map((n) => `${n.id} ${n.name ?? '(no name)'} ${n.distance_m} m`).join('; ')}` : '      nothing listed within 100 m');
    }
  }
  if (queues.reports) {
    lines.push(`Reports open: ${queues.reports.length}`);
    for (const r of queues.reports) {
      const toilet = r.toilet ? `${r.toilet.name ?? '(no name)'} at ${r.toilet.lat},${r.toilet.lon} (${r.toilet.source}${r.toilet.gone ? ', marked gone' : ''})` : 'not in the current data';
      lines.push(`  ${r.id}  ${r.reported_at}  ${r.kind}  ${r.toilet_id}: ${toilet}  ${r.open_reports} open report${r.open_reports === 1 ? '' : 's'} on it`);
      if (r.note) lines.push(`      note: ${r.note}`);
    }
  }
  if (queues.gone_votes) {
    lines.push(`Toilets most voters call gone (votes hide nothing; decide with \`gone\` or \`lock <id> existence yes\`): ${queues.gone_votes.length}`);
    for (const g of queues.gone_votes) lines.push(`  ${g.toilet_id}  ${g.name ?? '(no name)'}  ${g.gone_votes} gone, ${g.exists_votes} exists`);
  }
  if (queues.claims) {
    lines.push(`Business claims waiting: ${queues.claims.length}`);
    for (const c of queues.claims) {
      const toilet = c.toilet ? `${c.toilet.name ?? '(no name)'} at ${c.toilet.lat},${c.toilet.lon}${c.toilet.gone ? ' (marked gone)' : ''}` : 'not in the current data';
      lines.push(`  ${c.id}  ${c.claimed_at}  "${c.business_name}" claims ${c.toilet_id}: ${toilet}  (listing ${c.listing_id}, account ${c.account_id ?? 'deleted'})`);
      lines.push(`      contact: ${[c.contact_email, c.contact_phone, c.website].filter(Boolean).join(', ') || 'none left'}`);
      if (c.note) lines.push(`      note: ${c.note}`);
      lines.push(c.other_claims.length ? `      other claims on it: ${c.other_claims.map((o) => `${o.id} ${o.status} "${o.business_name}"`).join('; ')}` : '      no other claim on it');
    }
  }
  if (queues.locks) {
    lines.push(`Locks in force (undo with \`unlock <id> <fact>\`): ${queues.locks.length}`);
    for (const l of queues.locks) lines.push(`  ${l.toilet_id}  ${l.name ?? '(no name)'}  ${l.fact} = ${l.value}  since ${l.locked_at}`);
  }
  return lines.join('\n');
}

runAsScript(import.meta.url, main);
