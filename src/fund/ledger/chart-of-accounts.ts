export type AccountType = 'asset' | 'liability' | 'equity' | 'income' | 'expense';

export interface LedgerAccount {
  code: string;
  name: string;
  accountType: AccountType;
  normalBalance: 'debit' | 'credit';
}

/** Account codes the posting rules use; the names can be overridden per fund in fund.json. */
export const ACCOUNTS = {
  cashAtBank: '1000',
  cashAtVenues: '1100',
  investmentsAtCost: '1200',
  unrealizedAppreciation: '1250',
  receivables: '1300',
  managementFeePayable: '2000',
  performanceFeePayable: '2010',
  accruedExpenses: '2100',
  redemptionsPayable: '2200',
  securitiesSoldShort: '2300',
  capitalContributions: '3000',
  capitalRedemptions: '3100',
  retainedEarnings: '3900',
  realizedGains: '4000',
  changeInUnrealized: '4100',
  otherIncome: '4200',
  managementFees: '5000',
  performanceFees: '5100',
  tradingFees: '5200',
  fundAdministration: '5300',
  audit: '5400',
  legal: '5500',
  otherExpenses: '5600',
} as const;

function account(code: string, name: string, accountType: AccountType): LedgerAccount {
  const normalBalance = accountType === 'asset' || accountType === 'expense' ? 'debit' : 'credit';
  return { code, name, accountType, normalBalance };
}

export const DEFAULT_CHART: LedgerAccount[] = [
  account('1000', 'Cash at bank', 'asset'),
  account('1100', 'Cash and stablecoins at venues', 'asset'),
  account('1200', 'Investments at cost', 'asset'),
  account('1250', 'Unrealized appreciation', 'asset'),
  account('1300', 'Receivables', 'asset'),
  account('2000', 'Management fee payable', 'liability'),
  account('2010', 'Performance fee payable', 'liability'),
  account('2100', 'Accrued expenses', 'liability'),
  account('2200', 'Redemptions payable', 'liability'),
  account('2300', 'Securities sold short (at proceeds)', 'liability'),
  account('3000', 'Capital contributions', 'equity'),
  account('3100', 'Capital redemptions', 'equity'),
  account('3900', 'Retained earnings', 'equity'),
  account('4000', 'Realized gains/losses', 'income'),
  account('4100', 'Change in unrealized', 'income'),
  account('4200', 'Interest and other income', 'income'),
  account('5000', 'Management fees', 'expense'),
  account('5100', 'Performance fees', 'expense'),
  account('5200', 'Trading fees', 'expense'),
  account('5300', 'Fund administration', 'expense'),
  account('5400', 'Audit', 'expense'),
  account('5500', 'Legal', 'expense'),
  account('5600', 'Other expenses', 'expense'),
];

export const EXPENSE_ACCOUNT_BY_CATEGORY: Record<string, string> = {
  administration: ACCOUNTS.fundAdministration,
  audit: ACCOUNTS.audit,
  legal: ACCOUNTS.legal,
  other: ACCOUNTS.otherExpenses,
};

/**
 * Control accounts: the NAV engine keeps them from its own books (the position book, the fee
 * calculations, dealing), so a manual journal line on one would make the ledger and the NAV's
 * sub-ledgers disagree — or, on capital, move net assets the NAV never sees. Manual entries may not
 * post to them; each names where its changes come from instead.
 */
export const ENGINE_CONTROLLED_ACCOUNTS: ReadonlyMap<string, string> = new Map([
  [ACCOUNTS.investmentsAtCost, 'the position book (trades)'],
  [ACCOUNTS.unrealizedAppreciation, 'the position book (prices)'],
  [ACCOUNTS.managementFeePayable, 'the management fee calculation'],
  [ACCOUNTS.performanceFeePayable, 'the performance fee calculation'],
  [ACCOUNTS.redemptionsPayable, 'dealing (capital-activity proposals)'],
  [ACCOUNTS.securitiesSoldShort, 'the position book (trades)'],
  [ACCOUNTS.capitalContributions, 'dealing (capital-activity proposals)'],
  [ACCOUNTS.capitalRedemptions, 'dealing (capital-activity proposals)'],
  [ACCOUNTS.retainedEarnings, 'the period close'],
  [ACCOUNTS.realizedGains, 'the position book (trades)'],
  [ACCOUNTS.changeInUnrealized, 'the position book (prices)'],
  [ACCOUNTS.managementFees, 'the management fee calculation'],
  [ACCOUNTS.performanceFees, 'the performance fee calculation'],
]);

/** The default chart with a fund's renames applied (codes are fixed: posting rules rely on them). */
export function chartWithOverrides(overrides: { code: string; name: string }[] = []): LedgerAccount[] {
  const names = new Map(overrides.map((o) => [o.code, o.name]));
  return DEFAULT_CHART.map((a) => ({ ...a, name: names.get(a.code) ?? a.name }));
}
