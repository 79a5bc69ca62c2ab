// IMAP servers: the * OK greeting, STARTTLS or implicit TLS, an optional LOGIN (engine/kinds/mail.ts holds what the mail kinds share; checkers/mail-protocols.ts the protocol).
import { mailKind } from './mail.ts';

export const imapKind = mailKind('imap');
