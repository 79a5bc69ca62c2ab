// What an anomaly notification and the anomaly API carry as evidence: the shape of the incident
// evidence panel's items (src/lib/incident-evidence.ts EvidenceItem), with kinds of their own.
// Types only, shared by the server and the console.
import type { EvidenceItem } from './incident-evidence.ts';

export type AnomalyEvidenceKind = 'latency_anomaly' | 'traffic_divergence';

export type AnomalyEvidence = Omit<EvidenceItem, 'kind'> & { kind: AnomalyEvidenceKind };
