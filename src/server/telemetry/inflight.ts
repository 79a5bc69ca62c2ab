// Bytes of OTLP bodies held in memory right now (read, inflated, being decoded), per company
// and for the process. A request reserves each chunk as it arrives and gives all back when it
// is answered; a chunk that does not fit is refused, so many small gzip bombs at once cannot
// add up to hundreds of MiB. A company over its share gets 429, everyone gets 503 when the
// process is full: both retryable for OTLP exporters.
import { DomainError } from '../domain/errors.ts';

export interface InflightCaps {
  companyInflightBytes: number;
  processInflightBytes: number;
}

const RETRY_AFTER_S = 1;

export class InflightBudget {
  readonly #caps: InflightCaps;
  readonly #byCompany = new Map<string, number>();
  #total = 0;

  constructor(caps: InflightCaps) {
    this.#caps = caps;
  }

  /** A reservation for one request: take() as bytes arrive, release() once when answered. */
  open(companyId: string): Reservation {
    let held = 0;
    return {
      take: (bytes: number) => {
        const mine = this.#byCompany.get(companyId) ?? 0;
        if (mine + bytes > this.#caps.companyInflightBytes) {
          throw new DomainError('rate_limited', 'Too much data from this company is being processed at once; retry shortly.', {
            retryAfter: RETRY_AFTER_S,
          });
        }
        if (this.#total + bytes > this.#caps.processInflightBytes) {
          throw new DomainError('unavailable', 'Ingest is busy; retry shortly.', { retryAfter: RETRY_AFTER_S });
        }
        this.#byCompany.set(companyId, mine + bytes);
        this.#total += bytes;
        held += bytes;
      },
      release: () => {
        if (held === 0) return;
        const left = (this.#byCompany.get(companyId) ?? 0) - held;
        if (left > 0) this.#byCompany.set(companyId, left);
        else this.#byCompany.delete(companyId);
        this.#total -= held;
        held = 0;
      },
    };
  }

  get total(): number {
    return this.#total;
  }
}

export interface Reservation {
  /** Counts `bytes` more for this request; throws 429 (company) or 503 (process) when over. */
  take(bytes: number): void;
  release(): void;
}
