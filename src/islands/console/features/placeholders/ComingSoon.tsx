import { Icon } from '../../ui/Icon.tsx';
import { t } from '../../i18n.ts';

export function ComingSoon({ title }: { title: string }) {
  return (
    <div className="sw-panel sw-center-text sw-coming-soon">
      <p className="sw-big" aria-hidden="true">
        <Icon name="monitors" size={56} />
      </p>
      <h2>{title}</h2>
      <p className="sw-coming-soon-text">{t('placeholders.comingSoon.comingSoon')}</p>
      <p>{t('placeholders.comingSoon.thisSectionIsBeingBuilt')}</p>
    </div>
  );
}
