// Row types of migration 0302 (public area): custom domains of the status pages. Times in ms.
import type { CustomDomainState } from '../../../lib/custom-domains.ts';

export interface CustomDomainsTable {
  id: string;
  company_id: string;
  /** lower-case host name, unique across companies */
  domain: string;
  /** value the TXT record _statuswatch-challenge.<domain> must hold */
  token: string;
  /** only 'verified' domains are served */
  state: CustomDomainState;
  /** when it last became verified; kept after a failed check (null: control never proven) */
  verified_at: number | null;
  /** last proof check (by the console's Verify now or the daily job) */
  checked_at: number | null;
  /** why the last check failed, built by us */
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

export interface CustomDomainTables {
  custom_domains: CustomDomainsTable;
}
