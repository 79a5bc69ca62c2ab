// One declarative step of a browser journey: its action and the fields that action uses (goto a
// URL, click a selector, fill a value …); the others are hidden and not sent.
import { t } from '../../../i18n.ts';
import { Field } from '../../../ui/Field.tsx';
import { ACTION_FIELDS, BROWSER_ACTIONS, type BrowserAction, type BrowserStep } from './model.ts';

interface Props {
  step: BrowserStep;
  idBase: string;
  errors: Record<string, string>;
  onChange(step: BrowserStep): void;
}

const LABELS = {
  url: 'monitors.form.url',
  selector: 'monitors.steps.selector',
  value: 'monitors.steps.value',
  count: 'monitors.steps.count',
} as const;
const PLACEHOLDERS: Partial<Record<BrowserAction, Partial<Record<keyof typeof LABELS, string>>>> = {
  goto: { url: 'https://shop.example.com/' },
  click: { selector: 'text=Add to cart' },
  fill: { selector: '#email', value: '{{secrets.SHOP_PASSWORD}}' },
  select: { selector: '#size', value: 'M' },
  press: { selector: '#search', value: 'Enter' },
  wait_for_text: { value: 'Order confirmed' },
  wait_for_selector: { selector: '#cart .item' },
  assert_text: { selector: 'h1', value: 'Thank you' },
  assert_url: { value: '/checkout/done' },
  assert_title: { value: 'Shop' },
  assert_count: { selector: '#cart .item' },
};
const HINTS: Partial<Record<BrowserAction, 'press' | 'assert_text' | 'assert_url' | 'assert_title' | 'screenshot'>> = {
  press: 'press',
  assert_text: 'assert_text',
  assert_url: 'assert_url',
  assert_title: 'assert_title',
  screenshot: 'screenshot',
};
const hintOf = (action: BrowserAction) => {
  const h = HINTS[action];
  return h && t(`monitors.steps.hint.${h}`);
};

export function BrowserStepForm({ step, idBase, errors, onChange }: Props) {
  const fields = ACTION_FIELDS[step.action] ?? [];
  const set = (patch: Partial<BrowserStep>) => onChange({ ...step, ...patch });
  return (
    <div className="sw-steps-fields">
      <Field id={`${idBase}-action`} label={t('monitors.steps.action')} required error={errors.action} hint={hintOf(step.action)}>
        <select
          id={`${idBase}-action`}
          value={step.action}
          aria-describedby={HINTS[step.action] ? `${idBase}-action-hint` : undefined}
          onChange={(e) => set({ action: e.target.value as BrowserAction })}
        >
          {BROWSER_ACTIONS.map((a) => (
            <option key={a} value={a}>
              {a.replace(/_/g, ' ')}
            </option>
          ))}
        </select>
      </Field>
      <Field id={`${idBase}-name`} label={t('monitors.steps.name')} error={errors.name}>
        <input
          id={`${idBase}-name`}
          value={step.name ?? ''}
          placeholder={t('monitors.steps.describedFromAction')}
          onChange={(e) => set({ name: e.target.value || null })}
        />
      </Field>
      {fields.map((f) => (
        <div key={f} className={f === 'url' ? 'sw-span-2' : undefined}>
          <Field id={`${idBase}-${f}`} label={t(LABELS[f])} error={errors[f]}>
            <input
              id={`${idBase}-${f}`}
              type={f === 'count' ? 'number' : 'text'}
              value={step[f] ?? ''}
              placeholder={PLACEHOLDERS[step.action]?.[f]}
              aria-invalid={errors[f] ? true : undefined}
              aria-describedby={errors[f] ? `${idBase}-${f}-error` : undefined}
              onChange={(e) => {
                const v = e.target.value;
                set({ [f]: f === 'count' ? (v === '' ? null : Number.isFinite(Number(v)) ? Number(v) : (v as never)) : v });
              }}
            />
          </Field>
        </div>
      ))}
    </div>
  );
}
