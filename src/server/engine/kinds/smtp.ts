// SMTP servers: the 220 greeting, EHLO, STARTTLS or implicit TLS, an optional AUTH PLAIN login (engine/kinds/mail.ts holds what the mail kinds share; checkers/mail-protocols.ts the protocol).
import { mailKind } from './mail.ts';

export const smtpKind = mailKind('smtp');
