// Row types of the public area (migrations 0300-0399): status-page subscribers, page access and
// share links. Times in ms.
import type { Generated } from 'kysely';

/** slack, teams, discord: an incoming-webhook URL in webhook_url; sms: a phone number */
export type SubscriberKind = 'email' | 'webhook' | 'slack' | 'teams' | 'discord' | 'sms';
/** pending: waiting for the e-mail confirmation; only confirmed subscribers get notices */
export type SubscriberState = 'pending' | 'confirmed' | 'unsubscribed';

export interface StatusSubscribersTable {
  id: string;
  company_id: string;
  kind: SubscriberKind;
  /** lower-cased; null for webhooks */
  email: string | null;
  /** null for e-mail */
  webhook_url: string | null;
  /** whsec_… Standard Webhooks secret of a webhook subscriber */
  secret: string | null;
  /** JSON array of public monitor ids; null: every component */
  component_ids: string | null;
  state: SubscriberState;
  /** SHA-256 (hex) of the pending confirmation token; null once used */
  confirm_token_hash: string | null;
  confirm_expires_at: number | null;
  /** Signs the unsubscribe links (subscribers/tokens.ts); a new one voids every older link */
  unsubscribe_nonce: string;
  created_at: number;
  confirmed_at: number | null;
  updated_at: number;
  /** The language of their mails, a PUBLIC_LOCALES code (migration 0305); null: the company's default */
  locale: Generated<string | null>;
  /** E.164 number of an SMS subscriber (migration 0308) */
  phone: string | null;
  /** Wrong guesses of the pending SMS code (migration 0308) */
  confirm_attempts: Generated<number>;
}

/** A number that texted STOP: nothing is texted to it until START (migration 0309). */
export interface SmsOptOutsTable {
  phone: string;
  opted_out_at: number;
}

/** Who may read a company's public documents (migration 0301); no row: public. */
export type PageAccessMode = 'public' | 'password' | 'users' | 'ip_allowlist';

export interface StatusPageAccessTable {
  company_id: string;
  mode: PageAccessMode;
  /** argon2id of the page password (password mode); kept when another mode is chosen */
  password_hash: string | null;
  /** JSON array of CIDR ranges (IPv4 and IPv6) */
  ip_allowlist: string;
  updated_at: number;
}

/** A signed link that lets one viewer read a protected page until it expires or is revoked. */
export interface StatusPageShareLinksTable {
  id: string;
  company_id: string;
  label: string | null;
  created_by: string | null;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

export interface PublicTables {
  status_subscribers: StatusSubscribersTable;
  status_page_access: StatusPageAccessTable;
  status_page_share_links: StatusPageShareLinksTable;
  sms_opt_outs: SmsOptOutsTable;
}
