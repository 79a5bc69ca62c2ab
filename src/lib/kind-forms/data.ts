// The console form's fields of the mail and database kinds (smtp, imap, pop3, postgres, mysql,
// redis) that the dialog does not draw by hand; `url`, `host`, `port` and
// `degraded_threshold_ms` are the hand-drawn inputs of the http and tcp kinds.
import { DEFAULT_DB_QUERY, DEFAULT_MAIL_TLS, MAIL_TLS_MODES } from '../monitor-kinds.ts';
import type { KindFieldSpecs } from './field.ts';

export const DATA_FIELDS = {
  mail_tls: {
    label: 'Encryption',
    input: 'select',
    options: MAIL_TLS_MODES,
    default: DEFAULT_MAIL_TLS,
    hint: 'starttls: upgraded after the greeting (ports 587, 143, 110); implicit: TLS from the first byte (465, 993, 995).',
  },
  mail_banner: {
    label: 'Expected greeting',
    input: 'text',
    placeholder: 'mail.example.com ESMTP',
    hint: 'Text the server’s greeting must contain (its name or software). Blank: any welcome.',
  },
  username: { label: 'User name', input: 'text', hint: 'Optional: log in to check the credentials too.' },
  password: {
    label: 'Password',
    input: 'secret',
    hint: 'Stored encrypted and never shown again; leave blank to keep the saved one. A password in the URL is moved here.',
  },
  db_query: {
    label: 'Query',
    input: 'text',
    placeholder: DEFAULT_DB_QUERY,
    hint: 'One read-only statement (SELECT, WITH, SHOW …), run in a read-only transaction. Blank: SELECT 1.',
  },
  db_expected: {
    label: 'Expected value',
    input: 'text',
    hint: 'The first value of the first row, as text. Blank: any answer is fine.',
  },
} satisfies KindFieldSpecs;
