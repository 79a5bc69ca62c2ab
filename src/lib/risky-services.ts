// The risky services the vulnerability scan looks for open to the internet, with their usual
// ports: one table for the scan's open-ports check and for config.ts, which checks the
// operator's SCAN_SERVICE_PORTS names against it at boot. Pure data.

export interface RiskyService {
  port: number;
  label: string;
  /** a finding's severity when the port answers (a FindingSeverity of db/schema/security.ts) */
  severity: 'critical' | 'high' | 'medium';
}

export const RISKY_SERVICES: Record<string, RiskyService> = {
  ftp: { port: 21, label: 'FTP', severity: 'medium' },
  telnet: { port: 23, label: 'Telnet', severity: 'high' },
  smb: { port: 445, label: 'SMB', severity: 'high' },
  mssql: { port: 1433, label: 'Microsoft SQL Server', severity: 'high' },
  mysql: { port: 3306, label: 'MySQL', severity: 'high' },
  rdp: { port: 3389, label: 'Remote Desktop (RDP)', severity: 'high' },
  postgresql: { port: 5432, label: 'PostgreSQL', severity: 'high' },
  vnc: { port: 5900, label: 'VNC', severity: 'high' },
  redis: { port: 6379, label: 'Redis', severity: 'critical' },
  elasticsearch: { port: 9200, label: 'Elasticsearch', severity: 'critical' },
  memcached: { port: 11211, label: 'Memcached', severity: 'high' },
  mongodb: { port: 27017, label: 'MongoDB', severity: 'critical' },
};
