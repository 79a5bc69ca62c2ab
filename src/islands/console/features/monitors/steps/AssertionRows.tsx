// The rows of an API step's assertions and extractions: each row's inputs on one line, a remove
// button per row and an add button below. Ids follow the server's field names
// (m-steps-0-assertions-1-target) so its per-field messages land beside the input.
import { t } from '../../../i18n.ts';
import {
  ASSERTION_SOURCES,
  COMPARISONS,
  EXTRACTION_SOURCES,
  MAX_ROWS,
  removeAt,
  replaceAt,
  type ApiAssertion,
  type ApiExtraction,
} from './model.ts';

interface RowsProps<T> {
  /** id prefix of the step, e.g. m-steps-0 */
  idBase: string;
  stepLabel: string;
  rows: T[];
  errors: Record<string, string>;
  onChange(rows: T[]): void;
}

const takesProperty = (source: string) => source === 'header' || source === 'json' || source === 'body_regex';
const takesTarget = (comparison: string) => comparison !== 'exists' && comparison !== 'not_exists';

function RowError({ id, text }: { id: string; text?: string }) {
  return text ? (
    <small className="sw-field-error" role="alert" id={`${id}-error`}>
      {text}
    </small>
  ) : null;
}

/** The first message about a row: the row's own, else one of its fields'. */
const rowError = (errors: Record<string, string>, key: string) =>
  errors[key] ?? Object.entries(errors).find(([k]) => k.startsWith(`${key}.`))?.[1];

export function AssertionRows({ idBase, stepLabel, rows, errors, onChange }: RowsProps<ApiAssertion>) {
  const set = (i: number, patch: Partial<ApiAssertion>) => onChange(replaceAt(rows, i, { ...rows[i], ...patch } as ApiAssertion));
  return (
    <fieldset className="sw-steps-rows">
      <legend>{t('monitors.steps.assertions')}</legend>
      {rows.length === 0 && <p className="sw-hint">{t('monitors.steps.noAssertions')}</p>}
      {rows.map((a, i) => {
        const id = `${idBase}-assertions-${i}`;
        const err = rowError(errors, `assertions.${i}`);
        const n = t('monitors.steps.assertionN', { n: i + 1, step: stepLabel });
        return (
          <div key={i} className="sw-steps-row" data-testid="assertion-row">
            <select
              id={`${id}-source`}
              aria-label={t('monitors.steps.sourceOf', { what: n })}
              value={a.source}
              onChange={(e) => {
                const source = e.target.value as ApiAssertion['source'];
                set(i, { source, property: takesProperty(source) ? (a.property ?? '') : null });
              }}
            >
              {ASSERTION_SOURCES.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
            {takesProperty(a.source) && (
              <input
                id={`${id}-property`}
                aria-label={t('monitors.steps.propertyOf', { source: a.source, what: n })}
                placeholder={a.source === 'json' ? '$.user.id' : 'Content-Type'}
                value={a.property ?? ''}
                onChange={(e) => set(i, { property: e.target.value })}
              />
            )}
            <select
              id={`${id}-comparison`}
              aria-label={t('monitors.steps.comparisonOf', { what: n })}
              value={a.comparison}
              onChange={(e) => {
                const comparison = e.target.value as ApiAssertion['comparison'];
                set(i, { comparison, target: takesTarget(comparison) ? (a.target ?? '') : null });
              }}
            >
              {COMPARISONS.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
            {takesTarget(a.comparison) && (
              <input
                id={`${id}-target`}
                aria-label={t('monitors.steps.expectedOf', { what: n })}
                aria-invalid={err ? true : undefined}
                aria-describedby={err ? `${id}-error` : undefined}
                value={a.target ?? ''}
                onChange={(e) => set(i, { target: e.target.value })}
              />
            )}
            <button
              type="button"
              className="sw-btn sw-btn-small"
              aria-label={t('monitors.steps.removeOne', { step: n })}
              onClick={() => onChange(removeAt(rows, i))}
            >
              {t('monitors.steps.remove')}
            </button>
            <RowError id={id} text={err} />
          </div>
        );
      })}
      {rows.length < MAX_ROWS && (
        <button
          type="button"
          className="sw-btn sw-btn-small"
          onClick={() => onChange([...rows, { source: 'status', comparison: 'equals', target: '200' }])}
        >
          {t('monitors.steps.addAssertion')}
        </button>
      )}
    </fieldset>
  );
}

export function ExtractionRows({ idBase, stepLabel, rows, errors, onChange }: RowsProps<ApiExtraction>) {
  const set = (i: number, patch: Partial<ApiExtraction>) => onChange(replaceAt(rows, i, { ...rows[i], ...patch } as ApiExtraction));
  return (
    <fieldset className="sw-steps-rows">
      <legend>{t('monitors.steps.extract')}</legend>
      {rows.length === 0 && <p className="sw-hint">{t('monitors.steps.noExtractions')}</p>}
      {rows.map((x, i) => {
        const id = `${idBase}-extract-${i}`;
        const err = rowError(errors, `extract.${i}`);
        const n = t('monitors.steps.extractionN', { n: i + 1, step: stepLabel });
        return (
          <div key={i} className="sw-steps-row" data-testid="extraction-row">
            <input
              id={`${id}-variable`}
              aria-label={t('monitors.steps.variableOf', { what: n })}
              placeholder="token"
              aria-invalid={err ? true : undefined}
              aria-describedby={err ? `${id}-error` : undefined}
              value={x.variable}
              onChange={(e) => set(i, { variable: e.target.value })}
            />
            <select
              id={`${id}-source`}
              aria-label={t('monitors.steps.sourceOf', { what: n })}
              value={x.source}
              onChange={(e) => {
                const source = e.target.value as ApiExtraction['source'];
                set(i, { source, property: takesProperty(source) ? (x.property ?? '') : null });
              }}
            >
              {EXTRACTION_SOURCES.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
            {takesProperty(x.source) && (
              <input
                id={`${id}-property`}
                aria-label={t('monitors.steps.propertyOf', { source: x.source, what: n })}
                placeholder={x.source === 'json' ? '$.token' : x.source === 'header' ? 'Location' : 'id="(\\d+)"'}
                value={x.property ?? ''}
                onChange={(e) => set(i, { property: e.target.value })}
              />
            )}
            <button
              type="button"
              className="sw-btn sw-btn-small"
              aria-label={t('monitors.steps.removeOne', { step: n })}
              onClick={() => onChange(removeAt(rows, i))}
            >
              {t('monitors.steps.remove')}
            </button>
            <RowError id={id} text={err} />
          </div>
        );
      })}
      {rows.length < MAX_ROWS && (
        <button
          type="button"
          className="sw-btn sw-btn-small"
          onClick={() => onChange([...rows, { variable: '', source: 'json', property: '$.' }])}
        >
          {t('monitors.steps.addExtraction')}
        </button>
      )}
    </fieldset>
  );
}
