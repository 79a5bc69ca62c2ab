// Reads a raw mail as a client shows it: the top-level Content-Type and, for a multipart mail,
// each part's type and decoded body (quoted-printable, base64 or as sent). Enough for the
// account mails' multipart/alternative; not a general MIME parser.

export interface MimePart {
  contentType: string;
  body: string;
}

export interface ReadMail {
  /** e.g. 'multipart/alternative' */
  contentType: string;
  subject: string;
  parts: MimePart[];
}

function split(raw: string): { headers: Map<string, string>; body: string } {
  const at = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, at).replace(/\r?\n[ \t]+/g, ' ');
  const body = raw.slice(at).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decode(body: string, encoding: string | undefined): string {
  if (encoding?.toLowerCase() === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding?.toLowerCase() === 'quoted-printable') {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

export function readMail(raw: string): ReadMail {
  const { headers, body } = split(raw);
  const type = headers.get('content-type') ?? 'text/plain';
  const contentType = type.split(';')[0].trim().toLowerCase();
  const subject = headers.get('subject') ?? '';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!contentType.startsWith('multipart/') || !boundary)
    return { contentType, subject, parts: [{ contentType, body: decode(body, headers.get('content-transfer-encoding')) }] };
  const parts = body
    .split(`--${boundary}`)
    .slice(1)
    .filter((p) => !p.startsWith('--'))
    .map((p) => {
      const part = split(p.replace(/^\r?\n/, ''));
      return {
        contentType: (part.headers.get('content-type') ?? 'text/plain').split(';')[0].trim().toLowerCase(),
        body: decode(part.body.replace(/\r?\n$/, ''), part.headers.get('content-transfer-encoding')),
      };
    });
  return { contentType, subject, parts };
}
