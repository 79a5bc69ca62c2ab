import { Icon } from '../../ui/Icon.tsx';

export function ComingSoon({ title }: { title: string }) {
  return (
    <div className="sw-panel sw-center-text sw-coming-soon">
      <p className="sw-big" aria-hidden="true">
        <Icon name="monitors" size={56} />
      </p>
      <h2>{title}</h2>
      <p className="sw-coming-soon-text">Coming Soon</p>
      <p>This section is being built.</p>
    </div>
  );
}
