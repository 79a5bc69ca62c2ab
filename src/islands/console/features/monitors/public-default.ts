// "Show on the public status page" starts as the API's default does (domain/monitors/service.ts):
// ticked while the company's page shows no monitor yet, so its first monitor reaches the page;
// unticked once one is public. Only a new monitor's form asks, and only until the box is touched.
import { useEffect } from 'react';
import { api } from '../../api.ts';

/** true while the company's status page shows no monitor; null when unknown (no company chosen yet, or the call failed). */
export async function publicByDefault(companyId: string, superAdmin: boolean): Promise<boolean | null> {
  if (superAdmin && !companyId) return null;
  const query = { is_public: true, limit: 1, ...(superAdmin ? { tenant: companyId } : {}) };
  const { data } = await api.GET('/api/v1/monitors', { params: { query } });
  return data ? data.length === 0 : null;
}

/** Sets the box from the company's page while `asking` (a new monitor whose box is untouched). */
export function usePublicDefault(asking: boolean, companyId: string, superAdmin: boolean, apply: (on: boolean) => void): void {
  useEffect(() => {
    if (!asking) return;
    let gone = false;
    void publicByDefault(companyId, superAdmin).then((on) => {
      if (!gone && on !== null) apply(on);
    });
    return () => {
      gone = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [asking, companyId, superAdmin]);
}
