// Row types of the monitoring engine's tables (migrations 0100-0199).
export interface MonitoringTables {}
