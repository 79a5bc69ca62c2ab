// A multipart/form-data body (a file upload) for the one operation that takes one, the import
// (POST /api/v1/imports): an x-raw-body operation, so no other route gains a multipart parser
// (the API refuses such bodies, which a cross-site form can send without a preflight). Read up
// to the operation's limit, then parsed with the platform's own WHATWG FormData (undici).
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { problem, type ProblemBody } from './problem.ts';

export async function readMultipart(req: FastifyRequest, limit: number, tooLarge: string): Promise<FormData | ProblemBody> {
  const header = String(req.headers['content-type'] ?? '');
  const type = header.split(';')[0].trim().toLowerCase();
  if (type !== 'multipart/form-data')
    return problem(415, 'unsupported_media_type', `Unsupported content type '${type}'; send the file as multipart/form-data.`);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return problem(413, 'payload_too_large', tooLarge);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req.body as Readable) {
    size += (chunk as Buffer).length;
    if (size > limit) return problem(413, 'payload_too_large', tooLarge);
    chunks.push(chunk as Buffer);
  }
  try {
    return await new Response(Buffer.concat(chunks), { headers: { 'content-type': header } }).formData();
  } catch {
    return problem(400, 'validation', 'The upload is not a readable multipart/form-data body.');
  }
}
