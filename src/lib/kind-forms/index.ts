// Every declared kind field the console's monitor form draws (field.ts says how), one spread per
// group of kinds. A field already drawn by hand in MonitorDialog.tsx (url, host, port, headers …)
// is not declared here. Append new groups at the end.
import type { KindFieldSpecs } from './field.ts';
import { GROUP_KIND_FIELDS } from './groups.ts';

export const KIND_FIELD_SPECS: KindFieldSpecs = {
  ...GROUP_KIND_FIELDS,
};

export type { KindField, KindFieldSpecs, KindFieldValue } from './field.ts';
