// One declarative step of a browser journey: its action and the fields that action uses (goto a
// URL, click a selector, fill a value …); the others are hidden and not sent.
import { Field } from '../../../ui/Field.tsx';
import { ACTION_FIELDS, BROWSER_ACTIONS, type BrowserAction, type BrowserStep } from './model.ts';

interface Props {
  step: BrowserStep;
  idBase: string;
  errors: Record<string, string>;
  onChange(step: BrowserStep): void;
}

const LABELS = { url: 'URL', selector: 'Selector', value: 'Value', count: 'Count' } as const;
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
const HINTS: Partial<Record<BrowserAction, string>> = {
  press: 'A key such as Enter or Tab; the selector is optional (blank: the page)',
  assert_text: 'The selector is optional (blank: the whole page)',
  assert_url: 'Text the URL contains, or /regular expression/',
  assert_title: 'Text the title contains, or /regular expression/',
  screenshot: 'Keeps a screenshot of the page at this point',
};

export function BrowserStepForm({ step, idBase, errors, onChange }: Props) {
  const fields = ACTION_FIELDS[step.action] ?? [];
  const set = (patch: Partial<BrowserStep>) => onChange({ ...step, ...patch });
  return (
    <div className="sw-steps-fields">
      <Field id={`${idBase}-action`} label="Action" required error={errors.action} hint={HINTS[step.action]}>
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
      <Field id={`${idBase}-name`} label="Step name" error={errors.name}>
        <input
          id={`${idBase}-name`}
          value={step.name ?? ''}
          placeholder="Described from the action"
          onChange={(e) => set({ name: e.target.value || null })}
        />
      </Field>
      {fields.map((f) => (
        <div key={f} className={f === 'url' ? 'sw-span-2' : undefined}>
          <Field id={`${idBase}-${f}`} label={LABELS[f]} error={errors[f]}>
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
