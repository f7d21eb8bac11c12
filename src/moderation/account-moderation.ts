// What a moderator (today: the operator, through `npm run moderate`) does to accounts, in one module for
// the command line and the web queue to come: grant and withdraw the moderator role, list moderators, and
// make a recovery link for a person who lost every passkey. Each action is recorded in the moderation log
// like every other (Moderation.act), without personal data: the account id, never the name or e-mail.
// Withdrawing the role ends the account's sessions, so a moderator session never outlives the role.
import { randomBytes } from 'node:crypto';
import { secretHash, type AccountRow, type AccountsStore } from '../accounts/store.js';
import { UsageError } from '../cli/command.js';
import { ModerationError, type Moderation } from './moderation.js';

/** How long an operator's recovery link works (once). */
export const RECOVERY_LINK_MS = 15 * 60_000;

export interface ModeratorEntry {
  id: string;
  display_name: string;
  created_at: string;
}

export class AccountModeration {
  constructor(
    private readonly moderation: Moderation,
    private readonly accounts: AccountsStore,
    private readonly now: () => number,
    private readonly baseUrl: string,
  ) {}

  moderators(): ModeratorEntry[] {
    return this.accounts.moderators().map((a) => ({ id: a.id, display_name: a.display_name, created_at: new Date(a.created_at).toISOString() }));
  }

  async grant(who: string, reason: string): Promise<string> {
    const account = this.account(who);
    if (account.moderator === 1) throw new ModerationError(`${account.id} is a moderator already; see \`moderators list\``);
    return this.moderation.act('grant_moderator', account.id, reason, {}, () => {
      this.accounts.setModerator(account.id, true);
      return `${account.id} (${account.display_name}) is a moderator now; its sessions end after 12 hours idle or 7 days`;
    });
  }

  async withdraw(who: string, reason: string): Promise<string> {
    const account = this.account(who);
    if (account.moderator === 0) throw new ModerationError(`${account.id} is not a moderator; see \`moderators list\``);
    return this.moderation.act('withdraw_moderator', account.id, reason, {}, () => {
      const ended = this.accounts.transaction(() => {
        this.accounts.setModerator(account.id, false);
        return this.accounts.deleteSessions(account.id);
      });
      return `${account.id} (${account.display_name}) is no longer a moderator; ${ended} session${ended === 1 ? '' : 's'} ended`;
    });
  }

  /**
   * A single-use link, valid 15 minutes, whose page registers a new passkey for the account
   * (startPasskeyRegistration and recoverAccount with its token). The token is in the fragment, so it
   * never reaches a server log or a Referer; only its hash is stored.
   */
  async recoveryLink(who: string, reason: string): Promise<{ account: string; url: string; expires_at: string }> {
    const account = this.account(who);
    const token = randomBytes(32).toString('base64url');
    const expiresAtMs = this.now() + RECOVERY_LINK_MS;
    const expires_at = new Date(expiresAtMs).toISOString();
    return this.moderation.act('recovery_link', account.id, reason, { expires_at }, () => {
      this.accounts.insertRecovery(secretHash(token), account.id, expiresAtMs);
      return { account: account.id, url: `${this.baseUrl}/account/recover#${token}`, expires_at };
    });
  }

  /**
   * An account by its id (acc_…) only: nothing verifies the e-mail address a sign-up gives, so an address
   * could name whichever account typed it first. The account page shows the id to its owner.
   */
  private account(who: string): AccountRow {
    if (!ACCOUNT_ID.test(who)) throw new UsageError(`${who} is not an account id (acc_ and 24 hex digits): ask the account's owner for the id their account page shows; e-mail addresses are not verified, so they name no account here`);
    const account = this.accounts.account(who);
    if (account === null) throw new ModerationError(`no account has the id ${who}`);
    return account;
  }
}

const ACCOUNT_ID = /^acc_[0-9a-f]{24}$/;
