// Batched span storage with group commit: requests queue their spans; one transaction at a time
// writes every queued batch (up to MAX_SPANS) with its RED rollups and commits, then each
// request is answered. A crash loses the in-flight transaction whole (its exporters got no
// answer and retry), never half of it; a retried span is stored and counted once.
import type { Db } from '../db/connect.ts';
import { withTransaction } from '../db/scope.ts';
import { spansRepo, type NewSpan } from '../db/repositories/spans-repo.ts';
import { redRepo } from '../db/repositories/red-repo.ts';
import type { DecodedSpan } from './otlp-spans.ts';
import { endpointsRepo } from '../db/repositories/endpoints-repo.ts';
import { rollupsOf } from './rollups.ts';
import { spanPeersRepo } from '../db/repositories/span-peers-repo.ts';
import { peerCalls } from './peer-hosts.ts';
import { endpointRollupsOf } from './endpoint-rollups.ts';

const MAX_SPANS = 5000;
/** Spans waiting beyond this are refused (the exporter retries later) instead of piling up. */
export const MAX_QUEUED_SPANS = 200_000;

interface Job {
  companyId: string;
  spans: DecodedSpan[];
  resolve(inserted: number): void;
  reject(e: unknown): void;
}

export class SpanWriter {
  readonly #db: Db;
  #queue: Job[] = [];
  #queued = 0;
  /** Set and cleared synchronously, so a write queued as the loop ends starts a new one. */
  #draining = false;
  #idle: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(db: Db) {
    this.#db = db;
  }

  /** true when the queue is too long to take more now. */
  get saturated(): boolean {
    return this.#queued >= MAX_QUEUED_SPANS;
  }

  /** Stores the spans; resolves with how many were new once they are committed. */
  write(companyId: string, spans: DecodedSpan[]): Promise<number> {
    if (this.#closed) return Promise.reject(new Error('span writer closed'));
    if (spans.length === 0) return Promise.resolve(0);
    return new Promise((resolve, reject) => {
      this.#queue.push({ companyId, spans, resolve, reject });
      this.#queued += spans.length;
      if (!this.#draining) {
        this.#draining = true;
        this.#idle = this.#drain();
      }
    });
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        const jobs: Job[] = [];
        let n = 0;
        while (this.#queue.length > 0 && (jobs.length === 0 || n + this.#queue[0].spans.length <= MAX_SPANS)) {
          const job = this.#queue.shift()!;
          this.#queued -= job.spans.length;
          jobs.push(job);
          n += job.spans.length;
        }
        try {
          const counts = await this.#commit(jobs);
          jobs.forEach((j, i) => j.resolve(counts[i]));
        } catch (e) {
          for (const j of jobs) j.reject(e);
        }
      }
    } finally {
      // In the same turn as the empty-queue check: a write that runs after this starts a loop.
      this.#draining = false;
    }
  }

  async #commit(jobs: Job[]): Promise<number[]> {
    return withTransaction(this.#db, async (tx) => {
      // Each span once per batch (an exporter may repeat one), then only those not stored yet
      // count in the rollups: a retried export adds nothing twice.
      const rows: NewSpan[] = [];
      const unique: DecodedSpan[][] = [];
      const seen = new Set<string>();
      for (const j of jobs) {
        const mine: DecodedSpan[] = [];
        for (const s of j.spans) {
          const key = `${j.companyId}/${s.trace_id}/${s.span_id}`;
          if (seen.has(key)) continue;
          seen.add(key);
          mine.push(s);
          rows.push({ company_id: j.companyId, ...s });
        }
        unique.push(mine);
      }
      const inserted = await spansRepo(tx).insertNew(rows);
      const allNew = inserted.length === rows.length;
      const isNew = allNew ? null : new Set(inserted.map((r) => `${r.company_id}/${r.trace_id}/${r.span_id}`));
      const counts: number[] = [];
      // One rollup row per key in the statement (PostgreSQL refuses to upsert a row twice).
      const freshByCompany = new Map<string, DecodedSpan[]>();
      for (let i = 0; i < jobs.length; i++) {
        const companyId = jobs[i].companyId;
        const fresh = isNew ? unique[i].filter((s) => isNew.has(`${companyId}/${s.trace_id}/${s.span_id}`)) : unique[i];
        counts.push(fresh.length);
        const list = freshByCompany.get(companyId);
        if (list) list.push(...fresh);
        else freshByCompany.set(companyId, fresh.slice());
      }
      await redRepo(tx).add([...freshByCompany].flatMap(([companyId, fresh]) => rollupsOf(companyId, fresh)));
      // The hosts the services called, for threat matching (security/threat/match.ts).
      await spanPeersRepo(tx).touch([...freshByCompany].flatMap(([companyId, fresh]) => peerCalls(companyId, fresh)));
      await endpointsRepo(tx).add([...freshByCompany].flatMap(([companyId, fresh]) => endpointRollupsOf(companyId, fresh)));
      return counts;
    });
  }

  /** Waits for queued spans to be written; later writes are refused. */
  async close(): Promise<void> {
    this.#closed = true;
    while (this.#draining) await this.#idle;
  }
}
