export function Spinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="sw-center" role="status" aria-live="polite">
      <span className="sw-spinner" aria-hidden="true" />
      <span className="sw-spinner-label">{label}</span>
    </div>
  );
}
