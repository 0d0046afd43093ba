import type { Scope } from '../common/auth/scopes';
import { FIRST_DATE, isCalendarDate, LAST_DATE } from '../common/validation/calendar-date';
import { quotedInput } from '../common/validation/safe-text';

/**
 * What the fund MCP server offers beside tools: `resources` (documents an agent can attach as
 * context; each is read through its REST route in-process, so the same scope check, rate limit and
 * redaction apply) and `prompts` (task templates whose text names the tools to call).
 */
export interface FundResource {
  uri: string;
  name: string;
  title: string;
  description: string;
  /** The read tool (and so the REST GET route) the resource is read through. */
  tool: string;
}

export const FUND_RESOURCES: FundResource[] = [
  {
    uri: 'fundgate://fund/lp-reports',
    name: 'lp-reports',
    title: 'LP reports',
    tool: 'get_fund_lp_reports',
    description: "The fund's LP reports: period covered, status and a short narrative preview (most recent first).",
  },
  {
    uri: 'fundgate://fund/fee-terms',
    name: 'fee-terms',
    title: 'Fee terms',
    tool: 'get_fund_fee_terms',
    description:
      'Management and performance fee terms (rates, hurdle, high-water mark, crystallisation) and the share classes they apply to.',
  },
  {
    uri: 'fundgate://fund/overview',
    name: 'overview',
    title: 'Fund overview',
    tool: 'get_fund_overview',
    description: 'The fund, its share classes and the latest complete NAV.',
  },
];

export interface FundPrompt {
  name: string;
  title: string;
  description: string;
  arguments: { name: string; description: string; required: boolean }[];
  text(args: Record<string, string>): string;
}

const DATE_ARG = { name: 'date', description: 'A NAV date (YYYY-MM-DD); omit for the latest', required: false };

export const FUND_PROMPTS: FundPrompt[] = [
  {
    name: 'explain_pnl_attribution',
    title: 'Explain the P&L attribution',
    description: "Explain what drove the fund's P&L between a NAV run and the previous one.",
    arguments: [DATE_ARG],
    text: (a) =>
      [
        `Explain the fund's P&L attribution${a.date ? ` for ${a.date}` : ' for the latest date that has one'}.`,
        a.date ? '' : 'First call get_fund_pnl_attribution_dates and take the latest date.',
        'Call get_fund_pnl_attribution with that date. Name the largest contributors (market moves, fees, flows, income) with their amounts,',
        'say how they add up to the change in NAV (the attribution is exact to the cent), and flag anything unusual.',
        'Use get_fund_overview for the base currency and share classes. Amounts are decimal strings in the fund base currency.',
      ]
        .filter(Boolean)
        .join(' '),
  },
  {
    name: 'summarise_exposure_and_var',
    title: 'Summarise exposure and VaR',
    description: "Summarise the live book's exposure and value at risk, with the worst historical stress scenario.",
    arguments: [],
    text: () =>
      [
        "Summarise the fund's current risk. Call get_fund_exposure (long, short, gross, net and cash, with ratios over NAV),",
        'get_fund_risk_var (parametric VaR with Euler components: name the top contributors) and get_fund_risk_stress_presets,',
        'then get_fund_risk_stress_test for the most severe preset. Rates are fractions of 1, not percentages.',
        'Finish with three short bullet points a portfolio manager can act on.',
      ].join(' '),
  },
  {
    name: 'check_nav_reconciliation',
    title: 'Check the NAV reconciliation',
    description: "Compare the shadow NAV with the administrator's and explain any break.",
    arguments: [DATE_ARG],
    text: (a) =>
      [
        `Check the shadow NAV against the administrator's NAV${a.date ? ` on ${a.date}` : ''}. Call get_fund_nav_reconciliation`,
        'and get_fund_nav_history; for a difference outside tolerance, look at get_fund_trial_balance and get_fund_expenses for the date',
        'and say which accounts likely explain it (the administrator sends fund totals only, so no share class is named for a break).',
        'Name every date the administrator restated (restatements) and every valued month-end it has not sent yet (awaitingAdministrator).',
        'Do not propose journal entries unless asked; a proposal only stages a change for a human manager.',
      ].join(' '),
  },
];

/** Every prompt cites fund:read tools: prompts are offered to callers holding fund:read (capability included). */
export const PROMPT_SCOPES: readonly Scope[] = ['fund:read'];

/** The `resources/list` result of the fund server: the resources the caller may read. */
export function resourcesListResult(resources: readonly FundResource[]): { resources: object[] } {
  return {
    resources: resources.map(({ uri, name, title, description }) => ({
      uri,
      name,
      title,
      description,
      mimeType: 'application/json',
    })),
  };
}

/** The `prompts/list` result of the fund server. */
export function promptsListResult(): { prompts: object[] } {
  return {
    prompts: FUND_PROMPTS.map(({ name, title, description, arguments: args }) => ({
      name,
      title,
      description,
      arguments: args,
    })),
  };
}

/**
 * The `prompts/get` result for `params`, or the reason the params are refused: an unknown prompt,
 * arguments that are not an object, an argument of the prompt that is not a string (MCP prompt
 * arguments are strings), a date that is not a real calendar date. Arguments a prompt does not take
 * are ignored.
 */
export function promptGetResult(params: Record<string, unknown>): { result: object } | { refused: string } {
  const prompt = FUND_PROMPTS.find((p) => p.name === params.name);
  if (!prompt) return { refused: `unknown prompt: ${quotedInput(params.name)}` };
  const raw = params.arguments ?? {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { refused: 'params.arguments must be an object' };
  const args: Record<string, string> = {};
  for (const { name } of prompt.arguments) {
    const value = (raw as Record<string, unknown>)[name];
    if (value === undefined) continue;
    if (typeof value !== 'string') return { refused: `${name} must be a string` };
    args[name] = value;
  }
  if (args.date !== undefined && !isCalendarDate(args.date))
    return { refused: `date must be a real calendar date YYYY-MM-DD from ${FIRST_DATE} to ${LAST_DATE}` };
  const messages = [{ role: 'user', content: { type: 'text', text: prompt.text(args) } }];
  return { result: { description: prompt.description, messages } };
}
