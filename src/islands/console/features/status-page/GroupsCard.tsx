// The component groups of the status page: add, rename, reorder and remove (a removed group's
// monitors are listed on their own). Changes join the layout on screen until Save.
import { useState, type FormEvent } from 'react';
import { GROUP_NAME_MAX } from '../../../../lib/public-name.ts';
import { addGroup, type Layout, moveGroup, removeGroup, renameGroup, translateGroup } from './layout.ts';
import { OtherLanguages } from '../../ui/OtherLanguages.tsx';
import { t } from '../../i18n.ts';

let created = 0;

export function GroupsCard(p: { layout: Layout; onChange: (l: Layout) => void; onAnnounce: (text: string) => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const groups = p.layout.slice(1);
  const add = (e: FormEvent) => {
    e.preventDefault();
    const n = name.trim();
    if (!n) return setError(t('statusPage.groups.nameRequired'));
    if (groups.some((g) => g.name.trim().toLowerCase() === n.toLowerCase())) return setError(t('statusPage.groups.nameTaken', { name: n }));
    setError(null);
    setName('');
    p.onChange(addGroup(p.layout, n, `new-${++created}`));
    p.onAnnounce(t('statusPage.groups.added', { name: n }));
  };
  const move = (key: string, label: string, by: -1 | 1) => {
    p.onChange(moveGroup(p.layout, key, by));
    p.onAnnounce(by < 0 ? t('statusPage.groups.movedUp', { label }) : t('statusPage.groups.movedDown', { label }));
    // the button keeps the focus when it can still move; else its neighbour takes it
    requestAnimationFrame(() => {
      const self = document.getElementById(`sp-group-${by < 0 ? 'up' : 'down'}-${key}`) as HTMLButtonElement | null;
      (self && !self.disabled ? self : document.getElementById(`sp-group-${by < 0 ? 'down' : 'up'}-${key}`))?.focus();
    });
  };
  return (
    <section className="sw-card sw-sp-groups" aria-labelledby="sp-groups-title">
      <header className="sw-card-head">
        <h3 id="sp-groups-title">{t('statusPage.groups.title', { count: groups.length })}</h3>
      </header>
      <div className="sw-card-body">
        <p className="sw-muted">{t('statusPage.groups.intro')}</p>
        {groups.length > 0 && (
          <ol className="sw-sp-group-list">
            {groups.map((g, i) => {
              const label = g.name.trim() || t('statusPage.groups.fallbackName', { n: i + 1 });
              return (
                <li key={g.key}>
                  <input
                    value={g.name}
                    maxLength={GROUP_NAME_MAX}
                    aria-label={t('statusPage.groups.nameOf', { n: i + 1 })}
                    onChange={(e) => p.onChange(renameGroup(p.layout, g.key, e.target.value))}
                  />
                  <span className="sw-actions">
                    <button
                      type="button"
                      id={`sp-group-up-${g.key}`}
                      className="sw-btn sw-btn-small"
                      aria-label={t('statusPage.groups.moveUp', { label })}
                      disabled={i === 0}
                      onClick={() => move(g.key, label, -1)}
                    >
                      {t('statusPage.groups.up')}
                    </button>
                    <button
                      type="button"
                      id={`sp-group-down-${g.key}`}
                      className="sw-btn sw-btn-small"
                      aria-label={t('statusPage.groups.moveDown', { label })}
                      disabled={i === groups.length - 1}
                      onClick={() => move(g.key, label, 1)}
                    >
                      {t('statusPage.groups.down')}
                    </button>
                    <button
                      type="button"
                      className="sw-btn sw-btn-small sw-btn-danger"
                      aria-label={t('statusPage.groups.removeNamed', { label })}
                      onClick={() => {
                        p.onChange(removeGroup(p.layout, g.key));
                        p.onAnnounce(t('statusPage.groups.removed', { label }));
                        document.getElementById('sp-new-group')?.focus();
                      }}
                    >
                      {t('statusPage.groups.remove')}
                    </button>
                  </span>
                  <OtherLanguages
                    id={`sp-group-lang-${g.key}`}
                    field={t('statusPage.groups.nameOf', { n: i + 1 })}
                    maxLength={GROUP_NAME_MAX}
                    value={g.nameTranslations ?? {}}
                    onChange={(next) => p.onChange(translateGroup(p.layout, g.key, next))}
                  />
                </li>
              );
            })}
          </ol>
        )}
        <form className="sw-sp-add" onSubmit={add} noValidate>
          <label htmlFor="sp-new-group">{t('statusPage.groups.newGroup')}</label>
          <input
            id="sp-new-group"
            value={name}
            maxLength={GROUP_NAME_MAX}
            aria-describedby={error ? 'sp-new-group-error' : undefined}
            onChange={(e) => setName(e.target.value)}
          />
          <button type="submit" className="sw-btn">
            {t('statusPage.groups.add')}
          </button>
          {error && (
            <small id="sp-new-group-error" className="sw-field-error" role="alert">
              {error}
            </small>
          )}
        </form>
      </div>
    </section>
  );
}
