// One feed's import: downloaded to a temporary file (bounded in bytes and time; the operator's
// URL is trusted, its size is not), then read line by line inside one transaction that stages
// the indicators in large batches and then replaces the feed's stored entries by them, writing
// only what came, went or changed. A failed download changes nothing but the feed's error.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { DbScope } from '../../db/scope.ts';
import { withTransaction } from '../../db/scope.ts';
import { threatRepo, type NewIndicator } from '../../db/repositories/threat-repo.ts';
import type { FeedConfig } from '../../threat-config.ts';
import { feedParser } from './feed-parse.ts';
import { prefixKey } from './addresses.ts';

/** Indicators per write; each batch names a value once */
const BATCH = 20_000;

export interface ImportLimits {
  maxBytes: number;
  timeoutMs: number;
}

export class FeedError extends Error {}

/** Downloads `url` to `file`, refusing more than maxBytes or more than timeoutMs. */
async function download(url: string, file: string, limits: ImportLimits): Promise<void> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let res: Response;
  try {
    res = await fetch(url, { signal, headers: { accept: 'text/plain, text/csv, */*' } });
  } catch (e) {
    throw new FeedError(signal.aborted ? `no answer within ${limits.timeoutMs / 1000} s` : `could not connect (${(e as Error).message})`);
  }
  if (res.status !== 200 || !res.body) {
    await res.body?.cancel();
    throw new FeedError(`HTTP ${res.status}`);
  }
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > limits.maxBytes) {
    await res.body.cancel();
    throw new FeedError(`larger than ${limits.maxBytes} bytes`);
  }
  let bytes = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      done(bytes > limits.maxBytes ? new FeedError(`larger than ${limits.maxBytes} bytes`) : null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), cap, createWriteStream(file));
  } catch (e) {
    if (e instanceof FeedError) throw e;
    throw new FeedError(signal.aborted ? `no answer within ${limits.timeoutMs / 1000} s` : `download failed (${(e as Error).message})`);
  }
}

/** Imports one feed at `at`; answers how many indicators it now holds. Throws FeedError. */
export async function importFeed(db: DbScope, feed: FeedConfig, limits: ImportLimits, at: number): Promise<number> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sw-feed-'));
  const file = path.join(dir, 'feed');
  try {
    await download(feed.url, file, limits);
    const parse = feedParser(feed.format);
    const cacheBefore = await threatRepo(db).bulkCache(-128 * 1024); // 128 MiB while writing
    try {
      return await withTransaction(db, async (tx) => {
        const repo = threatRepo(tx);
        await repo.startImport();
        let batch = new Map<string, NewIndicator>();
        const prefixes = new Set<string>();
        let staged = 0;
        const flush = async () => {
          staged += batch.size;
          await repo.stageIndicators([...batch.values()]);
          batch = new Map();
        };
        for await (const line of createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })) {
          const ind = parse(line);
          if (!ind) continue;
          if (ind.kind === 'cidr') prefixes.add(prefixKey(ind.value));
          batch.set(ind.value, { ...ind, threat: ind.threat ?? feed.threat });
          if (batch.size >= BATCH) await flush();
        }
        await flush();
        // An error page answered with 200 would otherwise empty the feed.
        if (staged === 0) throw new FeedError('no indicators in the answer');
        await repo.finishImport(feed.name, at);
        const total = await repo.countIndicators(feed.name);
        await repo.saveFeed({
          name: feed.name,
          url: feed.url,
          format: feed.format,
          indicators: total,
          cidr_prefixes: JSON.stringify([...prefixes].sort()),
          imported_at: at,
          attempted_at: at,
          error: null,
        });
        return total;
      });
    } finally {
      await threatRepo(db).bulkCache(cacheBefore);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
