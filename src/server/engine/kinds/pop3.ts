// POP3 servers: the +OK greeting, STLS or implicit TLS, an optional USER/PASS login (engine/kinds/mail.ts holds what the mail kinds share; checkers/mail-protocols.ts the protocol).
import { mailKind } from './mail.ts';

export const pop3Kind = mailKind('pop3');
