// Every declared kind field the console's monitor form draws (field.ts says how), one spread per
// group of kinds. A field already drawn by hand in MonitorDialog.tsx (url, host, port, headers …)
// is not declared here. Append new groups at the end.
import { DATA_FIELDS } from './data.ts';
import type { KindFieldSpecs } from './field.ts';
import { GROUP_KIND_FIELDS } from './groups.ts';
import { NETWORK_FIELDS } from './network.ts';

export const KIND_FIELD_SPECS: KindFieldSpecs = {
  ...NETWORK_FIELDS,
  ...DATA_FIELDS,
  ...GROUP_KIND_FIELDS,
};

export type { KindField, KindFieldSpecs, KindFieldValue } from './field.ts';
