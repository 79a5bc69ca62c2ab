// A monitor's stored config (monitors.config, JSON): the fields of its kind.
/** The stored config; an unreadable one reads as empty (the check then fails on a missing field). */
export function parseConfig(text: string): object {
  try {
    const config: unknown = JSON.parse(text);
    return config !== null && typeof config === 'object' ? config : {};
  } catch {
    return {};
  }
}
