// Outgoing email: through SMTP_URL when configured, else written to the server log (so an
// operator without mail can still hand out a password-reset link). Every mail has a plain-text
// and an HTML part (multipart/alternative); account mails get their HTML from their text.
import nodemailer, { type Transporter } from 'nodemailer';
import { companiesRepo } from '../db/repositories/companies-repo.ts';
import type { Services } from '../domain/context.ts';
import { accountMailHtml, type AccountMailBrand } from './account-mail.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** what the mail is about, for the log line */
  kind: string;
  /** the actionable link, logged when there is no SMTP */
  link?: string;
  /** The company the mail is about: its name and colour brand the HTML part (else the product's) */
  companyId?: string | null;
}

async function brandOf(services: Services, companyId: string | null | undefined): Promise<AccountMailBrand> {
  const company = companyId ? await companiesRepo(services.db).findById(companyId) : undefined;
  return {
    companyName: company?.name ?? null,
    primaryColor: company?.primary_color ?? null,
    productName: services.config.productName,
  };
}

export interface MailerState {
  /** The SMTP transport, opened at the first mail when SMTP_URL is set and closed at shutdown */
  transport: Transporter | null;
  /**
   * Where mail goes without SMTP, one JSON log line (pino's shape) each; null: stdout, nothing
   * when LOG_LEVEL is silent. Tests listen here.
   */
  logSink: ((line: string) => void) | null;
}

export const newMailerState = (): MailerState => ({ transport: null, logSink: null });

declare module '../domain/context.ts' {
  interface ProcessState {
    /** This process's mail transport and log (this file) */
    mailer: MailerState;
  }
}

function transportFor(services: Services): Transporter | null {
  const url = services.config.smtpUrl;
  if (!url) return null;
  const state = services.state.mailer;
  if (!state.transport) {
    const t = nodemailer.createTransport(url);
    state.transport = t;
    const close = t.close.bind(t);
    (services.onShutdown ??= []).push(async () => close());
  }
  return state.transport;
}

function log(services: Services, entry: Record<string, unknown>): void {
  const sink = services.state.mailer.logSink;
  if (!sink && services.config.logLevel === 'silent') return;
  const line = JSON.stringify({ time: services.now(), ...entry });
  if (sink) sink(line);
  else process.stdout.write(line + '\n');
}

export async function sendMail(services: Services, msg: MailMessage): Promise<void> {
  const t = transportFor(services);
  if (!t) {
    log(services, {
      level: 30,
      msg: `email (${msg.kind}) to ${msg.to}: ${msg.link ?? msg.subject}`,
      to: msg.to,
      subject: msg.subject,
      link: msg.link,
    });
    return;
  }
  try {
    const html = accountMailHtml(msg, await brandOf(services, msg.companyId));
    await t.sendMail({ from: services.config.mailFrom, to: msg.to, subject: msg.subject, text: msg.text, html });
  } catch (e) {
    // The operator must learn that mail is failing; the link itself is not logged (it is a secret
    // meant for the mailbox, and SMTP was configured to keep it there).
    log(services, { level: 50, msg: `email (${msg.kind}) to ${msg.to} failed: ${e instanceof Error ? e.message : String(e)}` });
    throw e;
  }
}

/** Tells the operator that a mail sent in the background (no caller to fail) could not go out. */
export function logMailFailure(services: Services, kind: string, to: string, e: unknown): void {
  log(services, { level: 50, msg: `email (${kind}) to ${to} failed: ${e instanceof Error ? e.message : String(e)}` });
}

export interface RichMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  /** Without angle brackets, e.g. 'msg_…@status.example.com' */
  messageId: string;
  /** Files sent along (a scheduled report's PDF or CSV) */
  attachments?: Array<{ filename: string; content: Buffer | string; contentType: string }>;
}

/**
 * Sends an alert mail through SMTP_URL. Unlike sendMail there is no log fallback: an alert that
 * cannot be mailed is a failed attempt the outbox retries and reports.
 */
export async function sendRichMail(services: Services, msg: RichMail): Promise<void> {
  const t = transportFor(services);
  if (!t) throw new Error('SMTP is not configured (set SMTP_URL)');
  await t.sendMail({
    from: services.config.mailFrom,
    to: msg.to,
    subject: msg.subject,
    text: msg.text,
    html: msg.html,
    headers: msg.headers,
    messageId: `<${msg.messageId}>`,
    ...(msg.attachments ? { attachments: msg.attachments } : {}),
  });
}
