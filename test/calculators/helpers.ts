import type { CallResult } from '../utils/app';

export type Answer = CallResult;

export const CALC_PATHS = [
  'fee-calculator',
  'nav-validator',
  'exposure-analysis',
  'operating-cost-calculator',
  'back-office-savings',
  'fund-health-check',
  'lp-report-grader',
] as const;

export function expectProblem(res: Answer, status: number, code: string): void {
  expect({ status: res.status, body: res.json }).toMatchObject({
    status,
    body: { status, code, type: `https://fundgate.dev/problems/${code}` },
  });
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
}

/** The `errors` of a 400 as `field: message` strings, sorted. */
export function fieldErrors(res: Answer): string[] {
  return ((res.json?.errors ?? []) as { field: string; message: string }[])
    .map((e) => `${e.field}: ${e.message}`)
    .sort();
}
