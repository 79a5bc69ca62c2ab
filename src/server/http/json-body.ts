// The JSON body parser: Fastify's own (prototype-poisoning checks included), except that an
// empty body with a JSON content type reads as no body. Clients such as fetch wrappers and
// generated SDKs send `Content-Type: application/json` on every call, also on calls that take
// no body (POST …/verify, …/pause); Fastify would refuse those with "body cannot be empty".
// An operation that requires a body still says so ("The request body is required.").
import type { FastifyInstance } from 'fastify';

export function registerJsonBodyParser(app: FastifyInstance): void {
  const standard = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  // SCIM clients (Okta, Entra ID) send their JSON as application/scim+json (RFC 7644 3.1).
  app.addContentTypeParser(['application/json', 'application/scim+json'], { parseAs: 'string' }, (req, body, done) => {
    const text = String(body); // parseAs 'string'
    if (text.trim() === '') return done(null, undefined);
    standard(req, text, done);
  });
}
