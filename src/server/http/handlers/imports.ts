// Imports from other tools: one handler per operationId of openapi/paths/imports.yaml.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HandlerMap } from '../handler-types.ts';
import { authorizeImport, importFile } from '../../domain/imports/service.ts';
import { importPastIncidents } from '../../domain/imports/past-incidents.ts';
import { importConfirmedSubscribers } from '../../domain/imports/past-subscribers.ts';
import { inProcessApi } from '../in-process-api.ts';
import { readMultipart } from '../multipart-body.ts';
import { problem, sendProblem } from '../problem.ts';

/** The upload's limit: openapi/paths/imports.yaml says the same (x-body-limit). A Kuma database of a few hundred monitors is a few MB. */
const UPLOAD_LIMIT = 20 * 1024 * 1024;
const TOO_LARGE = 'The file is larger than 20 MB. Export only what you mean to import, or use the CLI (npm run cli -- import).';

const invalid = (field: string, message: string) => problem(400, 'validation', message, { errors: { [field]: message } });

export const importsHandlers = {
  importFile: async ({ ctx, req, reply }) => {
    // Who may import is settled before the upload is read (a refused body is not drained).
    authorizeImport(ctx);
    const form = await readMultipart(req, UPLOAD_LIMIT, TOO_LARGE);
    if (!(form instanceof FormData)) return sendProblem(reply, form);
    const source = form.get('source');
    const file = form.get('file');
    const dryRun = form.get('dry_run') ?? 'true';
    if (typeof source !== 'string' || source === '') return sendProblem(reply, invalid('source', 'Choose a tool to import from.'));
    if (file === null || typeof file === 'string') return sendProblem(reply, invalid('file', 'Choose the export file to upload.'));
    if (file.size === 0) return sendProblem(reply, invalid('file', 'The file is empty.'));
    if (dryRun !== 'true' && dryRun !== 'false') return sendProblem(reply, invalid('dry_run', "dry_run is 'true' or 'false'."));
    // A private directory per upload (mode 0700), removed whatever happens: the file may hold
    // the other tool's secrets (channel tokens, passwords).
    const dir = await mkdtemp(join(tmpdir(), 'sw-import-'));
    try {
      const path = join(dir, randomUUID());
      await writeFile(path, Buffer.from(await file.arrayBuffer()), { mode: 0o600 });
      const fileName = (file.name || 'the file').replace(/[\r\n]/g, ' ').slice(0, 200);
      return await importFile(ctx, inProcessApi(req), { source, path, fileName, dryRun: dryRun === 'true' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
  importPastIncidents: async ({ ctx, body }) => importPastIncidents(ctx, body),
  importConfirmedSubscribers: async ({ ctx, body }) => importConfirmedSubscribers(ctx, body),
} satisfies HandlerMap;
