// Row types of the public area (migrations 0300-0399): status-page subscribers. Times in ms.

export type SubscriberKind = 'email' | 'webhook';
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
}

export interface PublicTables {
  status_subscribers: StatusSubscribersTable;
}
