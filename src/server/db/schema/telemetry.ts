// Row types of the telemetry (OTLP) tables (migrations 0200-0299).
export interface TelemetryTables {}
