/** The seven free tools: one page each at /tools/<name>, calling POST /api/v1/calc/<name>. */
export type ToolName =
  | 'fee-calculator'
  | 'nav-validator'
  | 'exposure-analysis'
  | 'operating-cost-calculator'
  | 'back-office-savings'
  | 'fund-health-check'
  | 'lp-report-grader';

export interface ToolInfo {
  name: ToolName;
  title: string;
  /** One line: the question the tool answers. */
  question: string;
}

export const TOOLS: readonly ToolInfo[] = [
  {
    name: 'fee-calculator',
    title: 'Fee calculator',
    question: 'What do 2-and-20, a hurdle and a high-water mark do to a NAV over the years?',
  },
  {
    name: 'nav-validator',
    title: 'NAV validator',
    question: 'Does a reported closing NAV roll forward from its opening, flows, P&L and fees?',
  },
  {
    name: 'exposure-analysis',
    title: 'Exposure analysis',
    question: 'Long, short, net and gross exposure by asset class and venue, and how concentrated the book is.',
  },
  {
    name: 'operating-cost-calculator',
    title: 'Operating cost calculator',
    question: 'What does running the back office cost a year, per LP report and in basis points of AUM?',
  },
  {
    name: 'back-office-savings',
    title: 'Back-office savings',
    question: 'What would an automated back office save, and when does it pay back?',
  },
  {
    name: 'fund-health-check',
    title: 'Fund health check',
    question: 'How do fees, operations, reporting, governance and concentration score?',
  },
  {
    name: 'lp-report-grader',
    title: 'LP report grader',
    question: 'What does an LP letter cover, and what will LPs find missing?',
  },
];

export function toolByName(name: string | undefined): ToolInfo | undefined {
  return TOOLS.find((t) => t.name === name);
}

/** The REST route of a tool (same origin). */
export const calcPath = (name: ToolName) => `/api/v1/calc/${name}`;
