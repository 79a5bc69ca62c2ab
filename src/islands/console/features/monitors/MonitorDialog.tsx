// Create or edit a monitor of any kind: the kind's fields with their defaults, the server's
// messages beside the fields, Test now (one check, nothing saved) with its phase timings, and a
// push monitor's URL with a copy button and a curl line (shown after create or a new URL only).
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { t } from '../../i18n.ts';
import { $role } from '../../stores/auth.ts';
import { $selectedTenant, $tenantOptions } from '../../stores/tenant.ts';
import { $locationOptions, loadLocationOptions, locationsOf } from '../../stores/location-options.ts';
import { LocationChecklist } from '../../ui/LocationChecklist.tsx';
import { Field } from '../../ui/Field.tsx';
import { clearErrors } from '../../ui/form-errors.ts';
import { fmtNumber } from '../../ui/format.ts';
import { Modal } from '../../ui/Modal.tsx';
import {
  curlExample,
  emptyForm,
  explain,
  formOf,
  KIND_FIELDS,
  KIND_FORMS,
  KIND_LABELS,
  KIND_ORDER,
  METHODS,
  phasesOf,
  RECORD_TYPES,
  rotatePushUrl,
  saveMonitor,
  testMonitor,
  withType,
  type MonitorForm,
  type TestResult,
} from './form.ts';
import { STATUS_TEXT, type MonitorRow, type MonitorType } from './store.ts';
import { usePublicDefault } from './public-default.ts';
import { DeclaredFields } from './DeclaredFields.tsx';
import { MonitorLinks } from './MonitorLinks.tsx';
import { StepsEditor } from './steps/StepsEditor.tsx';
import { RunResult, RunStep } from './steps/RunResult.tsx';
import type { StepResult } from './steps/test-lines.ts';
import { isJourney, isSynthetic, stepErrorKeys } from './steps/model.ts';

interface Props {
  monitor: MonitorRow | null;
  onClose: () => void;
  onSaved: (text: string) => void;
}

export function MonitorDialog({ monitor, onClose, onSaved }: Props) {
  const superAdmin = useStore($role) === 'super_admin';
  const tenant = useStore($selectedTenant);
  const companies = useStore($tenantOptions).list.filter((c) => c.is_active);
  const [f, setF] = useState<MonitorForm>(monitor ? formOf(monitor) : emptyForm('http', tenant ?? ''));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [banner, setBanner] = useState<string | null>(null);
  const [busy, setBusy] = useState<'save' | 'test' | null>(null);
  const [live, setLive] = useState<StepResult[]>([]);
  const [tested, setTested] = useState<TestResult | null>(null);
  const [pushUrl, setPushUrl] = useState<string | null>(null);
  const [publicTouched, setPublicTouched] = useState(false);
  usePublicDefault(!monitor && !publicTouched, f.company_id, superAdmin, (on) => setF((x) => ({ ...x, is_public: on })));

  const set = <K extends keyof MonitorForm>(key: K, value: MonitorForm[K]) => {
    setF((x) => ({ ...x, [key]: value }));
    setErrors((e) => clearErrors(e, key));
  };
  const setExtra = (key: string, value: MonitorForm['extra'][string]) => {
    setF((x) => ({ ...x, extra: { ...x.extra, [key]: value } }));
    setErrors((e) => clearErrors(e, key));
  };
  const refuse = (r: { text: string; fields: Record<string, string> }) => {
    setErrors(Object.fromEntries(Object.entries(r.fields).map(([k, v]) => [k, explain(v)])));
    setBanner(r.text);
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy('save');
    setBanner(null);
    const r = await saveMonitor(f, monitor?.id ?? null, superAdmin);
    setBusy(null);
    if (!r.ok) return refuse(r.refusal);
    onSaved(t(monitor ? 'monitors.form.saved' : 'monitors.form.created', { name: r.monitor.name }));
    if (r.monitor.push_url) setPushUrl(r.monitor.push_url);
    else onClose();
  }

  async function runTest() {
    setBusy('test');
    setBanner(null);
    setTested(null);
    setLive([]);
    // api_flow and browser tests are streamed: each step shows as it ends
    const r = await testMonitor(f, superAdmin, monitor?.id ?? null, (step) => setLive((steps) => [...steps, step]));
    setBusy(null);
    setLive([]);
    if (r.ok) setTested(r.result);
    else refuse(r.refusal);
  }

  if (pushUrl) return <PushUrl url={pushUrl} onClose={onClose} />;

  const shown = new Set(KIND_FIELDS[f.type]);
  const derived = KIND_FORMS[f.type].derived === true;
  const portHint = KIND_FORMS[f.type].portHint;
  const input = (
    key: keyof MonitorForm,
    label: string,
    props: { required?: boolean; hint?: ReactNode; type?: string; placeholder?: string } = {},
  ) =>
    shown.has(key) || ['name', 'interval_seconds', 'timeout_seconds', 'confirmations', 'sla_target'].includes(key) ? (
      <Field id={`m-${key}`} label={label} required={props.required} error={errors[key]} hint={props.hint}>
        <input
          id={`m-${key}`}
          type={props.type ?? 'text'}
          value={f[key] as string}
          placeholder={props.placeholder}
          aria-invalid={errors[key] ? true : undefined}
          aria-describedby={errors[key] ? `m-${key}-error` : props.hint ? `m-${key}-hint` : undefined}
          onChange={(e) => set(key, e.target.value as never)}
        />
      </Field>
    ) : null;
  return (
    <Modal title={monitor ? t('monitors.form.editTitle', { name: monitor.name }) : t('monitors.add')} onClose={onClose} wide>
      <form className="sw-form sw-form-grid" onSubmit={submit} noValidate>
        {banner && (
          <div className="sw-banner sw-banner-error sw-span-2" role="alert">
            {banner}
          </div>
        )}
        <Field id="m-type" label={t('monitors.form.kind')} required error={errors.type}>
          <select
            id="m-type"
            value={f.type}
            disabled={!!monitor}
            onChange={(e) => {
              setF((x) => withType(x, e.target.value as MonitorType));
              setTested(null);
            }}
          >
            {KIND_ORDER.map((k) => (
              <option key={k} value={k}>
                {KIND_LABELS[k]}
              </option>
            ))}
          </select>
        </Field>
        {superAdmin && !monitor && (
          <Field id="m-company_id" label={t('monitors.form.company')} required error={errors.company_id}>
            <select id="m-company_id" value={f.company_id} onChange={(e) => set('company_id', e.target.value)}>
              <option value="">{t('monitors.form.selectCompany')}</option>
              {companies.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </Field>
        )}
        {input('name', t('monitors.form.name'), { required: true, placeholder: t('monitors.form.namePlaceholder') })}
        {input('url', t('monitors.form.url'), {
          required: true,
          type: 'url',
          placeholder: KIND_FORMS[f.type].urlPlaceholder ?? 'https://example.com/health',
        })}
        {shown.has('method') && (
          <Field id="m-method" label={t('monitors.form.method')} error={errors.method}>
            <select id="m-method" value={f.method} onChange={(e) => set('method', e.target.value)}>
              {METHODS.map((m) => (
                <option key={m}>{m}</option>
              ))}
            </select>
          </Field>
        )}
        {input('host', f.type === 'dns' ? t('monitors.form.domainName') : t('monitors.form.host'), {
          required: true,
          placeholder: f.type === 'dns' ? 'example.com' : 'db.example.com',
        })}
        {input('port', t('monitors.form.port'), {
          required: f.type === 'tcp',
          type: 'number',
          hint: f.type === 'ssl' ? t('monitors.form.portHint.ssl') : portHint && t(portHint),
        })}
        {shown.has('record_type') && (
          <Field id="m-record_type" label={t('monitors.form.recordType')} error={errors.record_type}>
            <select id="m-record_type" value={f.record_type} onChange={(e) => set('record_type', e.target.value)}>
              {RECORD_TYPES.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          </Field>
        )}
        {input('resolver', t('monitors.form.resolver'), { hint: t('monitors.form.resolverHint') })}
        {input('expected_values', t('monitors.form.expectedValues'), { hint: t('monitors.form.expectedValuesHint') })}
        {input('ssl_warning_days', t('monitors.form.sslWarningDays'), { hint: t('monitors.form.sslWarningDaysHint') })}
        {input('accepted_status_codes', t('monitors.form.statusCodes'), { hint: t('monitors.form.statusCodesHint') })}
        {input('keyword', t('monitors.form.keyword'), { hint: t('monitors.form.keywordHint') })}
        {shown.has('keyword_mode') && (
          <Field id="m-keyword_mode" label={t('monitors.form.keywordMode')} error={errors.keyword_mode}>
            <select
              id="m-keyword_mode"
              value={f.keyword_mode}
              onChange={(e) => set('keyword_mode', e.target.value as MonitorForm['keyword_mode'])}
            >
              <option value="present">{t('monitors.form.keywordPresent')}</option>
              <option value="absent">{t('monitors.form.keywordAbsent')}</option>
            </select>
          </Field>
        )}
        {input('json_path', t('monitors.form.jsonPath'), { placeholder: '$.status' })}
        {input('json_expected', t('monitors.form.jsonExpected'))}
        <DeclaredFields fields={KIND_FIELDS[f.type]} values={f.extra} errors={errors} onChange={setExtra} />
        {isSynthetic(f.type) && (
          <StepsEditor
            kind={f.type}
            steps={f.steps}
            errors={errors}
            onChange={(steps, touched) => {
              setF((x) => ({ ...x, steps }));
              setErrors((e) =>
                clearErrors(
                  e,
                  'steps',
                  ...(touched === 'all' ? Object.keys(e).filter((k) => k.startsWith('steps')) : stepErrorKeys(e, touched)),
                ),
              );
            }}
          />
        )}
        {input('degraded_threshold_ms', t('monitors.form.degradedAbove'), { type: 'number' })}
        {shown.has('headers') && (
          <Field id="m-headers" label={t('monitors.form.headers')} error={errors.headers} hint={t('monitors.form.headersHint')}>
            <textarea
              id="m-headers"
              rows={2}
              value={f.headers}
              onChange={(e) => set('headers', e.target.value)}
              aria-describedby="m-headers-hint"
            />
          </Field>
        )}
        {shown.has('body') && (
          <Field id="m-body" label={t('monitors.form.body')} error={errors.body}>
            <textarea id="m-body" rows={2} value={f.body} onChange={(e) => set('body', e.target.value)} />
          </Field>
        )}
        {input('interval_seconds', t('monitors.form.interval'), { type: 'number', required: true })}
        {!derived && input('timeout_seconds', t('monitors.form.timeout'), { type: 'number' })}
        {!derived && input('confirmations', t('monitors.form.confirmations'), { type: 'number' })}
        {input('sla_target', t('monitors.form.sla'), {
          placeholder: t('monitors.form.slaPlaceholder'),
          hint: t('monitors.form.slaHint'),
        })}
        {shown.has('follow_redirects') && (
          <label className="sw-check">
            <input type="checkbox" checked={f.follow_redirects} onChange={(e) => set('follow_redirects', e.target.checked)} />{' '}
            {t('monitors.form.followRedirects')}
          </label>
        )}
        <label className="sw-check">
          <input
            type="checkbox"
            checked={f.is_public}
            onChange={(e) => {
              setPublicTouched(true);
              set('is_public', e.target.checked);
            }}
          />{' '}
          {t('monitors.form.public')}
        </label>
        <label className="sw-check">
          <input type="checkbox" checked={f.is_critical} onChange={(e) => set('is_critical', e.target.checked)} />{' '}
          {t('monitors.form.critical')}
        </label>
        <p className="sw-hint sw-span-2">{t('monitors.form.criticalHint')}</p>
        <MonitorLinks
          isGroup={shown.has('children')}
          companyId={monitor?.company_id ?? f.company_id}
          superAdmin={superAdmin}
          selfId={monitor?.id ?? null}
          childIds={f.children}
          parents={f.parents}
          onChildren={(ids) => set('children', ids)}
          onParents={(ids) => set('parents', ids)}
          errors={errors}
        />
        {f.type !== 'push' && !derived && (
          <LocationsFields
            f={f}
            set={set}
            errors={errors}
            companyId={superAdmin ? (monitor?.company_id ?? f.company_id) : null}
            defaultCount={monitor && monitor.locations === null ? monitor.location_status.length : null}
          />
        )}
        {f.type === 'push' && <p className="sw-hint sw-span-2">{monitor ? t('monitors.push.hintEdit') : t('monitors.push.hintNew')}</p>}
        {f.type === 'push' && monitor && <RotatePush id={monitor.id} onUrl={setPushUrl} />}
        {busy === 'test' && isSynthetic(f.type) && (
          <p className="sw-mon-test sw-span-2" role="status" data-testid="run-progress">
            {t(isJourney(f.type) ? 'monitors.test.runningBrowser' : 'monitors.test.running', { count: f.steps.length, done: live.length })}
          </p>
        )}
        {busy === 'test' && isSynthetic(f.type) && live.length > 0 && (
          <ol className="sw-run-steps sw-span-2" aria-label={t('monitors.test.stepsSoFar')} data-testid="run-live">
            {live.map((s) => (
              <RunStep key={s.index} step={s} monitorId={null} explain={explain} />
            ))}
          </ol>
        )}
        {tested && <TestOutcome result={tested} monitorId={monitor?.id ?? null} />}
        <div className="sw-modal-actions sw-span-2">
          <button type="button" className="sw-btn" onClick={onClose}>
            {t('monitors.cancel')}
          </button>
          {f.type !== 'push' && (
            <button type="button" className="sw-btn" onClick={() => void runTest()} disabled={busy !== null}>
              {busy === 'test' ? t('monitors.test.testing') : isSynthetic(f.type) ? t('monitors.test.runNow') : t('monitors.test.testNow')}
            </button>
          )}
          <button type="submit" className="sw-btn sw-btn-primary" disabled={busy !== null}>
            {busy === 'save' ? t('monitors.form.saving') : monitor ? t('monitors.form.save') : t('monitors.form.create')}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/**
 * Where the monitor is checked from: the company's default set or a choice of locations, and the
 * quorum ("Down when N of M locations agree"; blank: a majority of the online ones).
 */
function LocationsFields(props: {
  f: MonitorForm;
  set: <K extends keyof MonitorForm>(key: K, value: MonitorForm[K]) => void;
  errors: Record<string, string>;
  /** a super admin's monitor's company (their list holds every company's private locations); null: the caller's own */
  companyId: string | null;
  /** how many locations the company default has, when known */
  defaultCount: number | null;
}) {
  const { f, set, errors } = props;
  const all = useStore($locationOptions);
  useEffect(() => {
    void loadLocationOptions();
  }, []);
  const options = locationsOf(all, props.companyId);
  const count = f.use_default_locations ? props.defaultCount : f.locations.length;
  return (
    <fieldset className="sw-field sw-span-2 sw-mon-locations" data-testid="monitor-locations">
      <legend>{t('monitors.locations.legend')}</legend>
      <div className="sw-row" role="radiogroup" aria-label={t('monitors.locations.where')}>
        <label className="sw-check">
          <input type="radio" name="m-loc-mode" checked={f.use_default_locations} onChange={() => set('use_default_locations', true)} />{' '}
          {t('monitors.locations.useDefault')}
        </label>
        <label className="sw-check">
          <input
            type="radio"
            name="m-loc-mode"
            checked={!f.use_default_locations}
            onChange={() => {
              set('use_default_locations', false);
              if (f.locations.length === 0) set('locations', ['local']);
            }}
          />{' '}
          {t('monitors.locations.choose')}
        </label>
      </div>
      {!f.use_default_locations && (
        <LocationChecklist
          id="m-locations"
          legend={t('monitors.locations.checkFrom')}
          hint={t('monitors.locations.checkFromHint')}
          options={options}
          chosen={f.locations}
          onChange={(slugs) => set('locations', slugs)}
          error={errors.locations}
        />
      )}
      {f.use_default_locations && errors.locations && <p className="sw-field-error">{errors.locations}</p>}
      <Field
        id="m-quorum"
        label={t('monitors.locations.quorum')}
        error={errors.quorum}
        hint={count == null ? t('monitors.locations.quorumHintAny') : t('monitors.locations.quorumHint', { count })}
      >
        <input
          id="m-quorum"
          type="number"
          min={1}
          max={count ?? 16}
          value={f.quorum}
          placeholder={t('monitors.locations.majority')}
          aria-invalid={errors.quorum ? true : undefined}
          aria-describedby={errors.quorum ? 'm-quorum-error' : 'm-quorum-hint'}
          onChange={(e) => set('quorum', e.target.value)}
        />
      </Field>
    </fieldset>
  );
}

const OUTCOME = { operational: 'green', degraded: 'amber', down: 'red' } as const;

function TestOutcome({ result, monitorId }: { result: TestResult; monitorId: string | null }) {
  const tone = OUTCOME[result.status];
  const text = STATUS_TEXT[result.status].text;
  const phases = phasesOf(result.timings);
  return (
    <section className="sw-mon-test sw-span-2" aria-label={t('monitors.test.result')} aria-live="polite">
      <p>
        <span className={`sw-pill sw-${tone}`}>{text}</span>
        {result.status_code != null && <> HTTP {result.status_code}</>}
        {result.response_time_ms != null && <> {t('monitors.test.inMs', { ms: fmtNumber(result.response_time_ms) })}</>}
      </p>
      {/* a run's failing step carries the same sentence, beside its step */}
      {result.error && !result.run?.steps.some((s) => s.error) && <p className="sw-field-error">{explain(result.error)}</p>}
      {result.run && <RunResult run={result.run} monitorId={monitorId} title={t('monitors.test.stepsOfRun')} explain={explain} />}
      {phases.length > 0 && !result.run && (
        <dl className="sw-mon-phases">
          {phases.map((p) => (
            <div key={p.label}>
              <dt>{p.label}</dt>
              <dd>{t('monitors.ms', { ms: fmtNumber(p.ms, 1) })}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}

function RotatePush({ id, onUrl }: { id: string; onUrl: (url: string) => void }) {
  const [sure, setSure] = useState(false);
  const [failed, setFailed] = useState(false);
  return (
    <div className="sw-span-2">
      {!sure ? (
        <button type="button" className="sw-btn sw-btn-small" onClick={() => setSure(true)}>
          {t('monitors.push.newUrl')}
        </button>
      ) : (
        <p role="alert">
          {t('monitors.push.stopsAtOnce')}{' '}
          <button
            type="button"
            className="sw-btn sw-btn-small sw-btn-danger"
            onClick={async () => {
              const url = await rotatePushUrl(id).catch(() => null);
              if (url) onUrl(url);
              else setFailed(true);
            }}
          >
            {t('monitors.push.replace')}
          </button>
        </p>
      )}
      {failed && <p className="sw-field-error">{t('monitors.push.newUrlFailed')}</p>}
    </div>
  );
}

function PushUrl({ url, onClose }: { url: string; onClose: () => void }) {
  const [copied, setCopied] = useState<string | null>(null);
  const copy = (what: string, text: string) =>
    void navigator.clipboard?.writeText(text).then(
      () => setCopied(what),
      () => setCopied(null),
    );
  return (
    <Modal title={t('monitors.push.title')} onClose={onClose} wide>
      <div className="sw-form">
        <p>{t('monitors.push.intro')}</p>
        <Field id="push-url" label={t('monitors.push.title')}>
          <div className="sw-row">
            <input id="push-url" readOnly value={url} className="sw-mon-code" onFocus={(e) => e.target.select()} />
            <button type="button" className="sw-btn sw-btn-small" onClick={() => copy('url', url)}>
              {t('monitors.push.copyUrl')}
            </button>
          </div>
        </Field>
        <Field id="push-curl" label={t('monitors.push.example')}>
          <div className="sw-row">
            <input id="push-curl" readOnly value={curlExample(url)} className="sw-mon-code" onFocus={(e) => e.target.select()} />
            <button type="button" className="sw-btn sw-btn-small" onClick={() => copy('curl', curlExample(url))}>
              {t('monitors.push.copyCommand')}
            </button>
          </div>
        </Field>
        <p role="status">{copied === 'url' ? t('monitors.push.urlCopied') : copied === 'curl' ? t('monitors.push.commandCopied') : ''}</p>
        <div className="sw-modal-actions">
          <button type="button" className="sw-btn sw-btn-primary" onClick={onClose}>
            {t('monitors.done')}
          </button>
        </div>
      </div>
    </Modal>
  );
}
