// The moderation's part of `npm run moderate` (src/moderation/moderate-cli.ts is the frame, src/cli/subcommands.ts
// its rules): the queues, the decisions on submissions, reports and business claims, a partner listing's
// plan by hand, the locks, gone, the log, the moderators and the recovery links. Each subcommand opens the
// databases as the server does (TOILETS_DB, OVERLAY_DB or with DATABASE_URL PostgreSQL, ACCOUNTS_DB,
// migrated) and records its action in the moderation log (moderation.ts); every running server shows it
// within about a second.
import { loadConfig } from '../config.js';
import { jsonLogger } from '../log.js';
import { ToiletCatalog } from '../toilets/catalog.js';
import { Community } from '../community/community.js';
import { openStorage } from '../stores.js';
import { moderationStoreOf } from './store-choice.js';
import { SqliteAccountsStore } from '../accounts/sqlite-store.js';
import { SqliteAccountEventLog } from '../accounts/event-log.js';
import { SqlitePartnerStore } from '../partners/sqlite-store.js';
import { ACCOUNTS_DATABASE } from '../databases.js';
import { UsageError } from '../cli/command.js';
import { CommandRefusal, type CommandPart, type Subcommand, type SubcommandRun } from '../cli/subcommands.js';
import { storageTrouble } from '../storage/errors.js';
import { Moderation } from './moderation.js';
import { AccountModeration } from './account-moderation.js';
import { ClaimModeration } from './claim-moderation.js';
import { describeQueues } from './queue-text.js';

/** The moderation modules over the databases, opened for one subcommand (closed by the frame when it ends). */
interface Opened {
  moderation: Moderation;
  claims: ClaimModeration;
  accounts: AccountModeration;
  reason: string;
}

async function open(run: SubcommandRun): Promise<Opened> {
  const config = loadConfig(run.env);
  const log = jsonLogger(run.stderr, run.stderr);
  const storage = await openStorage(config, log);
  run.defer(() => storage.close());
  const community = new Community(config, log, Date.now, storage.overlay ?? undefined);
  run.defer(() => community.close());
  const store = new SqliteAccountsStore(config.accountsDb, ACCOUNTS_DATABASE);
  run.defer(() => store.close());
  const catalog = new ToiletCatalog(config.toiletsDb, community.overlay, log, Date.now);
  catalog.load();
  const moderation = new Moderation(moderationStoreOf(community.store), catalog, Date.now, { baseUrl: config.baseUrl, osmNotesApi: config.osmNotesApi });
  const accounts = new AccountModeration(moderation, store, Date.now, config.baseUrl);
  // a running server notices these commits by the accounts database's data_version (src/partners/partners.ts)
  const claims = new ClaimModeration(moderation, { store: new SqlitePartnerStore(store, new SqliteAccountEventLog(store.db, Date.now)), now: Date.now, toilets: catalog, changed: () => {} });
  if (run.values.name !== undefined && run.command !== 'approve') throw new UsageError('--name goes with approve <claim id> only');
  return { moderation, claims, accounts, reason: String(run.values.reason ?? '') };
}

/** A subcommand over the opened moderation modules. */
function moderating(spec: Omit<Subcommand, 'run'>, run: (opened: Opened, run: SubcommandRun) => number | Promise<number>): Subcommand {
  return { ...spec, run: async (given) => run(await open(given), given) };
}

/**
 * A subcommand that changes the accounts database (the moderator role, a recovery link): a storage trouble
 * there is said as the accounts database's, since the frame's own line names the overlay's.
 */
function onAccounts(spec: Omit<Subcommand, 'run'>, run: (opened: Opened, run: SubcommandRun) => Promise<number>): Subcommand {
  return moderating(spec, async (opened, given) => {
    try {
      return await run(opened, given);
    } catch (error) {
      const trouble = storageTrouble(error);
      if (trouble === null) throw error;
      throw new CommandRefusal(`the accounts database cannot be changed now: ${trouble} (${(error as Error).message}); nothing was changed, run the command again once that is mended`);
    }
  });
}

/** Says what a change did: `{ done }` with --json. */
function said(run: SubcommandRun, done: string): number {
  run.show({ done }, () => done);
  return 0;
}

const QUEUES = ['submissions', 'reports', 'gone-votes', 'claims', 'locks'] as const;

const list = moderating(
  { name: 'list', words: ['[submissions|reports|gone-votes|claims|locks]'], optional: 1, changes: false, help: ['  list [submissions|reports|gone-votes|claims|locks]  the queues, with context, and the locks in force'] },
  async ({ moderation, claims }, run) => {
    const which = run.args[0] ?? 'all';
    if (which !== 'all' && !(QUEUES as readonly string[]).includes(which)) throw new UsageError('list takes submissions, reports, gone-votes, claims, locks or nothing');
    const shown = (queue: (typeof QUEUES)[number]) => which === 'all' || which === queue;
    const queues = {
      ...(shown('submissions') ? { submissions: await moderation.submissions() } : {}),
      ...(shown('reports') ? { reports: await moderation.reports() } : {}),
      ...(shown('gone-votes') ? { gone_votes: moderation.goneVotes() } : {}),
      ...(shown('claims') ? { claims: await claims.pending() } : {}),
      ...(shown('locks') ? { locks: await moderation.locks() } : {}),
    };
    run.show(queues, () => describeQueues(queues));
    return 0;
  },
);

/** approve or reject: a submission, a report or a business claim. */
function decision(name: 'approve' | 'reject', help: string[]): Subcommand {
  return moderating({ name, words: ['<sub_N|rep_N|claim id>'], changes: true, help, options: { name: { type: 'string' } } }, async ({ moderation, claims, reason }, run) => {
    const [target] = run.args;
    const claim = target.startsWith('clm_');
    const correction = run.values.name as string | undefined;
    if (correction !== undefined && !claim) throw new UsageError('--name goes with approve <claim id> only');
    if (claim) return said(run, await (name === 'approve' ? claims.approve(target, reason, correction) : claims.reject(target, reason)));
    return said(run, await (name === 'approve' ? moderation.approve(target, reason) : moderation.reject(target, reason)));
  });
}

const approve = decision('approve', [
  '  approve <sub_N|rep_N> --reason TEXT             a submission becomes toilet c_N; a report is closed',
  '  approve <claim id> [--name NAME] --reason TEXT  a business claim (--name corrects what partner.name shows);',
  '                                                  rejects the other pending claims on the toilet',
]);
const reject = decision('reject', ["  reject <sub_N|rep_N|claim id> --reason TEXT     (a claim's reason is shown to the business)"]);

const plan = moderating(
  { name: 'plan', words: ['<listing id>', 'basic|plus|none'], changes: true, help: ["  plan <listing id> basic|plus|none --reason TEXT set a partner listing's plan by hand (not over a Stripe subscription)"] },
  async ({ claims, reason }, run) => said(run, await claims.plan(run.args[0], run.args[1], reason)),
);

const lock = moderating(
  { name: 'lock', words: ['<toilet id>', '<fact>', '<value>'], changes: true, help: ['  lock <toilet id> <fact> <value> --reason TEXT   show this value whatever the votes say'] },
  async ({ moderation, reason }, run) => said(run, await moderation.lock(run.args[0], run.args[1], run.args[2], reason)),
);

const unlock = moderating(
  { name: 'unlock', words: ['<toilet id>', '<fact>'], changes: true, help: ['  unlock <toilet id> <fact> --reason TEXT         let votes (or the source) decide again'] },
  async ({ moderation, reason }, run) => said(run, await moderation.unlock(run.args[0], run.args[1], reason)),
);

const gone = moderating(
  { name: 'gone', words: ['<toilet id>'], changes: true, help: ['  gone <toilet id> --reason TEXT                  hide the toilet everywhere (undo: unlock <id> existence)'] },
  async ({ moderation, reason }, run) => said(run, await moderation.markGone(run.args[0], reason)),
);

const log = moderating(
  { name: 'log', words: [], changes: false, help: ['  log [--limit N]                                 the latest moderator actions'], options: { limit: { type: 'string' } } },
  async ({ moderation }, run) => {
    const limit = Number(run.values.limit ?? 20);
    if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit takes a whole number from 1');
    const entries = await moderation.history(limit);
    run.show(entries, () => entries.map((e) => `${e.at}  ${e.action} ${e.target}  "${e.reason}"  ${JSON.stringify(e.details)}`).join('\n') || 'no actions yet');
    return 0;
  },
);

const moderators = onAccounts(
  {
    name: 'moderators',
    words: ['list|add|remove', '[<account>]'],
    optional: 1,
    // list needs no reason, add and remove do: checked here
    changes: false,
    help: [
      '  moderators list                                 the accounts with the moderator role',
      '  moderators add <account> --reason TEXT          grant the role (<account>: the acc_… id only, from the account page)',
      '  moderators remove <account> --reason TEXT       withdraw it; ends the account\'s sessions',
    ],
  },
  async ({ accounts, reason }, run) => {
    const [which, who] = run.args;
    if (which === 'list' && run.args.length === 1) {
      const entries = await accounts.moderators();
      run.show(entries, () => entries.map((m) => `${m.id}  ${m.display_name}  (account since ${m.created_at})`).join('\n') || 'no moderators yet');
      return 0;
    }
    if ((which === 'add' || which === 'remove') && run.args.length === 2) {
      if (reason.trim() === '') return run.usage(`moderators ${which} needs --reason "TEXT" (why, in a few words): every action is recorded with one`);
      return said(run, await (which === 'add' ? accounts.grant(who, reason) : accounts.withdraw(who, reason)));
    }
    return run.usage('write moderate -- moderators list, moderators add <account> --reason "TEXT" or moderators remove <account> --reason "TEXT"');
  },
);

const recoveryLink = onAccounts(
  { name: 'accounts', words: ['recovery-link', '<account>'], changes: true, help: ['  accounts recovery-link <account> --reason TEXT  a single-use link (15 minutes) that registers a new passkey'] },
  async ({ accounts, reason }, run) => {
    const [which, who] = run.args;
    if (which !== 'recovery-link') return run.usage('write moderate -- accounts recovery-link <account> --reason "TEXT"');
    const link = await accounts.recoveryLink(who, reason);
    run.show(link, () => `${link.url}\nworks once, until ${link.expires_at}, for ${link.account}: give it to the account's owner over a channel you trust`);
    return 0;
  },
);

export const COMMANDS: CommandPart = {
  subcommands: [list, approve, reject, plan, lock, unlock, gone, log, moderators, recoveryLink],
  notes: [
    '<account>: the acc_… id only, which the account\'s owner reads on their account page (e-mail addresses are not verified)',
    'facts: access, fee, fee_amount, wheelchair, changing_table, gender, opening_hours, name, operator, existence',
  ],
};
