// Where a company's public status page is: its subdomain's root, as a link (the dashboard and the
// header show it, so a new admin finds the page their public monitors appear on).
import { boot } from '../boot.ts';
import { statusPageAddress } from '../hosts.ts';
import { t } from '../i18n.ts';

export function StatusPageLink({ subdomain, className }: { subdomain: string | null | undefined; className?: string }) {
  const here = { protocol: window.location.protocol, port: window.location.port };
  const address = statusPageAddress(subdomain, boot().productDomain, here);
  if (!address) return null;
  return (
    <a className={className} href={address.href} target="_blank" rel="noopener" title={t('ui.statusPageLink.yourPublicStatusPage')}>
      {address.text}
    </a>
  );
}
