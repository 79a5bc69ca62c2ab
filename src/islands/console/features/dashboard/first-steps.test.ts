import { describe, expect, it } from 'vitest';
import { doneSteps } from './first-steps.ts';

describe('doneSteps', () => {
  const none = { monitor: false, status_page: false, alerts: false, team: false };
  it("takes the company's data as it is", () => {
    expect(doneSteps({ ...none, monitor: true, team: true }, {})).toEqual({ ...none, monitor: true, team: true });
  });
  it('ticks the status page when it was opened from the card, public monitor or not', () => {
    expect(doneSteps(none, { visitedStatusPage: true })).toEqual({ ...none, status_page: true });
    expect(doneSteps({ ...none, status_page: true }, {})).toEqual({ ...none, status_page: true });
  });
});
