// The layout editor's "Other languages" (issue 32): a monitor's public name and a group's name per
// language are read from the settings and written back, empty languages dropped; a layout read
// without them (an older server) sends none, so the server keeps what it has.
import { describe, expect, it } from 'vitest';
import { languageErrors } from '../../ui/OtherLanguages.tsx';
import { inputOf, layoutOf, translateGroup, updateMonitor, type Settings } from './layout.ts';

const settings: Settings = {
  company_id: 'c1',
  access: { mode: 'public', has_password: false, ip_allowlist: [], updated_at: null },
  preview_url: null,
  groups: [{ id: 'g1', name: 'Core', name_translations: { de: 'Kern' } }],
  monitors: [
    {
      id: 'a',
      name: 'Website',
      type: 'http',
      target: null,
      is_public: true,
      is_paused: false,
      status: 'operational',
      public_name: 'Web',
      shown_name: 'Web',
      group_id: 'g1',
      show_locations: false,
      show_response_chart: false,
      public_name_translations: { ja: 'ウェブ' },
    },
  ],
};

describe('status page layout in other languages', () => {
  it('round-trips names per language and drops the empty ones', () => {
    let l = layoutOf(settings);
    expect(inputOf(l).groups[0]).toMatchObject({ name_translations: { de: 'Kern' } });
    expect(inputOf(l).groups[0].monitors[0]).toMatchObject({ public_name_translations: { ja: 'ウェブ' } });
    l = updateMonitor(l, 'a', { publicNameTranslations: { ja: '', fr: ' Site ' } });
    l = translateGroup(l, 'g1', { de: 'Kern', he: 'ליבה' });
    const input = inputOf(l);
    expect(input.groups[0].monitors[0].public_name_translations).toEqual({ fr: 'Site' });
    expect(input.groups[0].name_translations).toEqual({ de: 'Kern', he: 'ליבה' });
  });

  it('a layout read without them sends none; problems are told per language', () => {
    const older = {
      ...settings,
      groups: [{ id: 'g1', name: 'Core' }],
      monitors: [{ ...settings.monitors[0], public_name_translations: undefined }],
    };
    const input = inputOf(layoutOf(older));
    expect(input.groups[0]).not.toHaveProperty('name_translations');
    expect(input.groups[0].monitors[0]).not.toHaveProperty('public_name_translations');
    expect(languageErrors({ 'message_translations.de': 'Too long', message: 'x' }, 'message_translations')).toEqual({ de: 'Too long' });
  });
});
