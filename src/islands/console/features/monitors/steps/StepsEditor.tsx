// The steps of an api_flow or browser monitor in the monitor dialog: an ordered list where each
// step can be moved up or down and removed (buttons, so the keyboard does all of it), each step's
// form (ApiStepForm / BrowserStepForm), an add button, and import/export. The server's messages
// keyed steps.N.field land beside the field of step N; its message about the list as a whole
// (`steps`) sits above the list.
import { useRef, useState } from 'react';
import { t, tr } from '../../../i18n.ts';
import { ApiStepForm } from './ApiStepForm.tsx';
import { BrowserStepForm } from './BrowserStepForm.tsx';
import { MAX_STEPS, moveStep, newStep, removeAt, replaceAt, stepErrors, stepLabel, type Step, type SyntheticKind } from './model.ts';
import { StepsIO } from './StepsIO.tsx';
import type { ApiFlowStep, BrowserStep } from './model.ts';

interface Props {
  kind: SyntheticKind;
  steps: Step[];
  errors: Record<string, string>;
  /** `touched`: the index of the step edited (its messages go), or 'all' after a move, removal or import */
  onChange(steps: Step[], touched: number | 'all'): void;
}

let seq = 0;
const nextId = () => `step-${++seq}`;

export function StepsEditor({ kind, steps, errors, onChange }: Props) {
  // Stable keys, moved with their steps, so a step's form keeps its own typing state when moved.
  const ids = useRef<string[]>(steps.map(nextId));
  if (ids.current.length !== steps.length) ids.current = steps.map(nextId);
  const [announce, setAnnounce] = useState('');
  // The domain's message on the whole list names its step ("Step 2 "Cart": …"): shown in that step.
  const named = errors.steps ? /^Step (\d+)\b/.exec(errors.steps) : null;
  const namedStep = named && Number(named[1]) <= steps.length ? Number(named[1]) - 1 : -1;
  const listError = namedStep < 0 ? errors.steps : undefined;

  const update = (next: Step[], nextIds: string[], touched: number | 'all', said?: string) => {
    ids.current = nextIds;
    onChange(next, touched);
    if (said) setAnnounce(said);
  };
  const move = (i: number, by: -1 | 1) => {
    update(
      moveStep(steps, i, by),
      moveStep(ids.current, i, by),
      'all',
      t('monitors.steps.moved', { step: stepLabel(steps[i] as Step, i), at: i + by + 1 }),
    );
    // keep the focus on the moved step's button, now at its new place
    requestAnimationFrame(() => document.getElementById(`m-steps-${i + by}-${by < 0 ? 'up' : 'down'}`)?.focus());
  };
  const remove = (i: number) =>
    update(removeAt(steps, i), removeAt(ids.current, i), 'all', t('monitors.steps.removed', { step: stepLabel(steps[i] as Step, i) }));
  const add = () => {
    update([...steps, newStep(kind, steps.length)], [...ids.current, nextId()], 'all', t('monitors.steps.added', { n: steps.length + 1 }));
    requestAnimationFrame(() => document.getElementById(`m-steps-${steps.length}-${kind === 'browser' ? 'action' : 'name'}`)?.focus());
  };

  return (
    <fieldset className="sw-steps sw-span-2" data-testid="steps-editor">
      <legend>{kind === 'browser' ? t('monitors.steps.journeyLegend') : t('monitors.steps.requestsLegend')}</legend>
      <p className="sw-hint">
        {kind === 'browser' ? t('monitors.steps.journeyHint') : t('monitors.steps.requestsHint')}{' '}
        {tr('monitors.steps.variablesHint', { code: (chunks) => <code>{chunks}</code> })}
      </p>
      {listError && (
        <p className="sw-field-error" role="alert" id="m-steps-error">
          {listError}
        </p>
      )}
      <ol className="sw-steps-list">
        {steps.map((step, i) => {
          const label = stepLabel(step, i);
          const errs = stepErrors(errors, i);
          if (i === namedStep && !errs._) errs._ = errors.steps as string;
          const idBase = `m-steps-${i}`;
          return (
            <li
              key={ids.current[i]}
              className={Object.keys(errs).length ? 'sw-steps-item sw-steps-invalid' : 'sw-steps-item'}
              data-testid="step"
              aria-labelledby={`${idBase}-title`}
            >
              <div className="sw-steps-head">
                <h4 id={`${idBase}-title`}>
                  <span className="sw-steps-num">{i + 1}</span> {label}
                </h4>
                <div className="sw-steps-tools">
                  <button
                    id={`${idBase}-up`}
                    type="button"
                    className="sw-btn sw-btn-small"
                    aria-label={t('monitors.steps.moveUp', { step: label })}
                    disabled={i === 0}
                    onClick={() => move(i, -1)}
                  >
                    ↑
                  </button>
                  <button
                    id={`${idBase}-down`}
                    type="button"
                    className="sw-btn sw-btn-small"
                    aria-label={t('monitors.steps.moveDown', { step: label })}
                    disabled={i === steps.length - 1}
                    onClick={() => move(i, 1)}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    className="sw-btn sw-btn-small sw-btn-danger"
                    aria-label={t('monitors.steps.removeOne', { step: label })}
                    onClick={() => remove(i)}
                  >
                    {t('monitors.steps.remove')}
                  </button>
                </div>
              </div>
              {errs._ && (
                <p className="sw-field-error" role="alert">
                  {errs._}
                </p>
              )}
              {kind === 'browser' ? (
                <BrowserStepForm
                  step={step as BrowserStep}
                  idBase={idBase}
                  errors={errs}
                  onChange={(s) => onChange(replaceAt(steps, i, s as Step), i)}
                />
              ) : (
                <ApiStepForm
                  step={step as ApiFlowStep}
                  idBase={idBase}
                  label={label}
                  errors={errs}
                  onChange={(s) => onChange(replaceAt(steps, i, s as Step), i)}
                />
              )}
            </li>
          );
        })}
      </ol>
      {steps.length === 0 && <p className="sw-empty">{t('monitors.steps.empty')}</p>}
      <button type="button" className="sw-btn" onClick={add} disabled={steps.length >= MAX_STEPS[kind]}>
        {t('monitors.steps.add')}
      </button>
      <p className="sw-visually-hidden" role="status">
        {announce}
      </p>
      <StepsIO
        kind={kind}
        steps={steps}
        onImport={(imported) => update(imported, imported.map(nextId), 'all', t('monitors.io.imported', { count: imported.length }))}
      />
    </fieldset>
  );
}
