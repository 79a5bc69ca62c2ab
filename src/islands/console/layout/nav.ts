// The navigation column's state: 240 px open or 60 px collapsed; below 768 px it collapses by
// itself and, when opened, an overlay closes it again on click.
import { atom } from 'nanostores';

export const MOBILE_QUERY = '(max-width: 767.98px)';
export const $mobile = atom(false);
export const $navCollapsed = atom(false);

export function watchViewport(): () => void {
  const mq = window.matchMedia(MOBILE_QUERY);
  const apply = () => {
    $mobile.set(mq.matches);
    $navCollapsed.set(mq.matches);
  };
  apply();
  mq.addEventListener('change', apply);
  return () => mq.removeEventListener('change', apply);
}

export function toggleNav(): void {
  $navCollapsed.set(!$navCollapsed.get());
}

export function closeNav(): void {
  $navCollapsed.set(true);
}
