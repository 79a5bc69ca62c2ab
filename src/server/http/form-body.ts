// An HTML form's body (application/x-www-form-urlencoded) for the few operations a browser posts
// as a form rather than JSON: the SAML ACS (the IdP's auto-posting page) and the main host's
// "Sign in with SSO" e-mail. They are x-raw-body operations (the API has no form parser, so no
// other route accepts a cross-site form); this reads the stream up to the operation's limit.
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { problem, type ProblemBody } from './problem.ts';

export async function readForm(req: FastifyRequest, limit: number): Promise<URLSearchParams | ProblemBody> {
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  if (type !== 'application/x-www-form-urlencoded')
    return problem(
      415,
      'unsupported_media_type',
      `Unsupported content type '${type}'; send an HTML form (application/x-www-form-urlencoded).`,
    );
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req.body as Readable) {
    size += (chunk as Buffer).length;
    if (size > limit) return problem(413, 'payload_too_large', 'The request body is too large.');
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
