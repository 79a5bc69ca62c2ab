// Gets results to the platform: collected for at most a second (or 500 results), appended to the
// disk buffer, then delivered from it oldest first; a segment leaves the disk only once the
// platform acknowledged all of it. While the platform is unreachable (no answer, 5xx) checks go
// on and batches pile up on disk; delivery is tried again with a growing pause (1 s to 15 s).
import type { DiskBuffer } from './buffer.ts';
import { type PlatformClient, PlatformError, type ProbeStats } from './client.ts';
import { RESULTS_BATCH_MAX } from '../lib/probe-assignments.ts';
import type { WireResult } from './wire.ts';
import { batchesOf } from './batches.ts';
import type { RunFigures } from './run-figures.ts';

const FLUSH_EVERY_MS = 1000;
const FLUSH_AT = 500;
const RETRY_MIN_MS = 1000;
const RETRY_MAX_MS = 15_000;

export interface Link {
  /** The platform answered (any call): logged once per change */
  up(): void;
  down(reason: string): void;
  isUp(): boolean;
  /** A call was refused with 401: the token is revoked or unknown */
  unauthorized(reason: string): void;
}

export class Sender {
  private pending: WireResult[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs = RETRY_MIN_MS;
  private delivering: Promise<void> | null = null;
  /** A backlog is on disk (the platform was unreachable, or results were left from a previous run) */
  private hadBacklog = false;
  /** Results of the backlog delivered so far (logged once it is gone) */
  private backlogDelivered = 0;
  private stopped = false;
  /** The whole run's figures (logged at stop) */
  run: RunFigures | null = null;

  private readonly client: PlatformClient;
  private readonly buffer: DiskBuffer;
  private readonly link: Link;
  private readonly stats: () => ProbeStats;
  private readonly log: (line: string) => void;

  constructor(client: PlatformClient, buffer: DiskBuffer, link: Link, stats: () => ProbeStats, log: (line: string) => void) {
    this.client = client;
    this.buffer = buffer;
    this.link = link;
    this.stats = stats;
    this.log = log;
  }

  start(): void {
    this.flushTimer = setInterval(() => this.flush(), FLUSH_EVERY_MS);
    if (this.buffer.pending > 0) {
      this.log(`buffer: ${this.buffer.pending} results on disk from before, delivering them first`);
      this.hadBacklog = true;
    }
    void this.deliver();
  }

  add(r: WireResult): void {
    this.pending.push(r);
    if (this.pending.length >= FLUSH_AT) this.flush();
  }

  /** Moves the collected results to disk and delivers what it can. */
  flush(): void {
    if (this.pending.length > 0) {
      this.buffer.append(this.pending);
      this.pending = [];
    }
    if (!this.retryTimer) void this.deliver();
  }

  /** At exit: what is collected goes to disk, one last delivery is tried, the rest stays on disk. */
  async stop(): Promise<void> {
    clearInterval(this.flushTimer);
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    if (this.pending.length > 0) this.buffer.append(this.pending);
    this.pending = [];
    await this.delivering;
    if (this.link.isUp()) await this.deliver();
    this.stopped = true;
    this.buffer.close();
  }

  private deliver(): Promise<void> {
    this.delivering ??= this.drain().finally(() => {
      this.delivering = null;
    });
    return this.delivering;
  }

  private async drain(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      if (!this.buffer.oldest()) this.buffer.seal();
      const seg = this.buffer.oldest();
      if (!seg) break;
      const results = this.buffer.read(seg);
      try {
        for (const part of batchesOf(results, RESULTS_BATCH_MAX)) {
          const sentAt = performance.now();
          const answer = await this.client.results(this.stats(), part);
          if (this.run) {
            this.run.delivery.add(performance.now() - sentAt);
            this.run.delivered += part.length - answer.refused.length;
          }
          if (answer.refused.length > 0)
            this.log(`platform refused ${answer.refused.length} results (${[...new Set(answer.refused.map((r) => r.reason))].join(', ')})`);
        }
      } catch (e) {
        if (e instanceof PlatformError && e.kind === 'rejected') {
          // This batch will never be taken as it is: keeping it would block everything after it.
          this.log(`platform rejected a batch of ${results.length} results (${e.message}): dropped`);
          this.buffer.remove(seg);
          continue;
        }
        if (e instanceof PlatformError && e.kind === 'unauthorized') {
          this.link.unauthorized(e.message);
          return;
        }
        this.link.down((e as Error).message);
        this.retryLater();
        return;
      }
      this.link.up();
      this.retryMs = RETRY_MIN_MS;
      this.buffer.remove(seg);
      if (!this.hadBacklog) continue;
      this.backlogDelivered += results.length;
      if (this.buffer.pending === 0) {
        this.log(`delivered ${this.backlogDelivered} buffered results`);
        this.hadBacklog = false;
        this.backlogDelivered = 0;
      }
    }
  }

  private retryLater(): void {
    if (this.stopped || this.retryTimer) return;
    if (!this.hadBacklog) {
      this.hadBacklog = true;
      this.backlogDelivered = 0;
      this.log(`buffering: ${this.buffer.pending} results on disk until the platform answers`);
    }
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.deliver();
    }, this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
  }
}
