// Probe locations chosen by checkbox (issue 27): a monitor's locations and a company's default
// set. The built-in engine reads "Platform (built-in)"; a company's own private locations are
// marked, since only they may reach its private addresses.
import { locationLabel } from '../../../lib/monitor-locations.ts';
import type { LocationOption } from '../stores/location-options.ts';
import { t } from '../i18n.ts';

export function LocationChecklist(props: {
  id: string;
  legend: string;
  hint: string;
  options: LocationOption[];
  chosen: string[];
  onChange: (slugs: string[]) => void;
  error?: string;
  disabled?: boolean;
}) {
  // Keep the options' order (built-in, public, private) whatever order they were ticked in.
  const order = (slugs: string[]) => props.options.map((o) => o.slug).filter((s) => slugs.includes(s));
  const toggle = (slug: string, on: boolean) =>
    props.onChange(on ? order([...props.chosen, slug]) : props.chosen.filter((x) => x !== slug));
  return (
    <fieldset className="sw-field sw-checklist" aria-describedby={`${props.id}-hint`} disabled={props.disabled}>
      <legend>{props.legend}</legend>
      <div className="sw-checklist-box" data-testid={props.id}>
        {props.options.map((o) => (
          <label key={o.slug} className="sw-check">
            <input type="checkbox" checked={props.chosen.includes(o.slug)} onChange={(e) => toggle(o.slug, e.target.checked)} />
            {locationLabel(o)} <span className="sw-muted sw-small">{o.slug}</span>
            {o.private && <span className="sw-pill sw-grey sw-loc-private">{t('ui.locationChecklist.private')}</span>}
          </label>
        ))}
      </div>
      <small className="sw-hint" id={`${props.id}-hint`}>
        {props.hint}
      </small>
      {props.error && (
        <small className="sw-field-error" role="alert">
          {props.error}
        </small>
      )}
    </fieldset>
  );
}
