// The one API client of the console (same origin, cookies, 30 s, renewal and 403 rules).
import { createApiClient } from '../../api/client.ts';
import { signInPath } from './access.ts';
import { onTenantHost } from './boot.ts';

export const api = createApiClient({ loginPath: () => signInPath(onTenantHost()) });
export { detailOr, errorText } from '../../api/client.ts';
