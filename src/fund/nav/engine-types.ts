import { type CrystallizationFrequency, type IsoDate } from '../dates';
import { type JournalEntryDraft } from '../ledger/journal-entry';
import { type Decimal } from '../money';

export interface ShareClassTerms {
  id: string;
  name: string;
  mgmtFeeAnnualRate: Decimal;
  perfFeeRate: Decimal;
  hurdleAnnualRate: Decimal | null;
  crystallizationFrequency: CrystallizationFrequency;
  feeExempt: boolean;
  initialNavPerUnit: Decimal;
}

export interface ConnectionTerms {
  code: string;
  sourceType: 'exchange' | 'custody' | 'bank' | 'broker';
  mode: 'live' | 'paper';
}

/** What the engine needs to know about a fund; built from its reference data. */
export interface FundTerms {
  fundId: string;
  baseCurrency: string;
  /** The bank connection where subscriptions, redemptions, fees and expenses settle. */
  cashConnection: string;
  settlementDays: number;
  classes: ShareClassTerms[];
  connections: Map<string, ConnectionTerms>;
  /** Symbols of stablecoins: booked in 1100 with cash (at cost, their price effect beside it), not in 1200. */
  stablecoins: ReadonlySet<string>;
}

export interface TradeEvent {
  ref: string;
  executedAt: string;
  connection: string;
  symbol: string;
  side: 'buy' | 'sell';
  quantity: Decimal;
  price: Decimal;
  fee: Decimal;
}

export interface TransferEvent {
  ref: string;
  fromConnection: string;
  toConnection: string;
  symbol: string;
  quantity: Decimal;
}

export interface FlowEvent {
  ref: string;
  flowId: string;
  investorId: string;
  classId: string;
  type: 'subscription' | 'redemption';
  amount: Decimal | null;
  fraction: Decimal | null;
}

export interface ExpenseEvent {
  ref: string;
  category: string;
  description: string;
  accrual: Decimal;
  payment: Decimal;
}

export interface DayInputs {
  date: IsoDate;
  prices: Map<string, Decimal>;
  trades: TradeEvent[];
  transfers: TransferEvent[];
  flows: FlowEvent[];
  expenses: ExpenseEvent[];
  /** Net income (credit − debit on income/expense accounts) of manual entries dated today. */
  manualPnl: Decimal;
}

export interface PositionState {
  connection: string;
  symbol: string;
  quantity: Decimal;
  /** Signed cost in cents: positive for a long at average cost, negative for a short at proceeds. */
  cost: Decimal;
}

export interface LotState {
  lotId: string;
  flowId: string;
  investorId: string;
  classId: string;
  issueDate: IsoDate;
  issueNavPerUnit: Decimal;
  unitsIssued: Decimal;
  units: Decimal;
  hwmPerUnit: Decimal;
  hwmDate: IsoDate;
  accrued: Decimal;
}

export interface ClassState {
  classId: string;
  units: Decimal;
  nav: Decimal;
  mgmtPayable: Decimal;
  perfCrystallizedUnpaid: Decimal;
}

export interface RedemptionPayable {
  flowId: string;
  ref: string;
  amount: Decimal;
  payDate: IsoDate;
}

/** Everything needed to value the next day: the checkpoint stored with each complete run. */
export interface EngineState {
  valuationDate: IsoDate | null;
  positions: Map<string, PositionState>;
  /** Unrealized appreciation of investments (account 1250); stablecoins excluded. */
  unrealized: Decimal;
  /** Price effect of stablecoins held (market value − cost), booked in 1100. */
  stableUnrealized: Decimal;
  accruedExpenses: Decimal;
  /** Net assets booked by manual entries outside the position book. */
  otherNetAssets: Decimal;
  classes: Map<string, ClassState>;
  lots: LotState[];
  investorCapital: Map<string, Decimal>;
  redemptionPayables: RedemptionPayable[];
}

export interface ClassResult {
  classId: string;
  openingNav: Decimal;
  pnl: Decimal;
  expenses: Decimal;
  managementFee: Decimal;
  performanceFee: Decimal;
  performanceFeeCrystallized: Decimal;
  subscriptions: Decimal;
  redemptions: Decimal;
  nav: Decimal;
  units: Decimal;
  navPerUnit: Decimal | null;
  grossNavPerUnit: Decimal | null;
}

export interface CapitalAccountResult {
  investorId: string;
  classId: string;
  openingCapital: Decimal;
  contributions: Decimal;
  redemptions: Decimal;
  pnl: Decimal;
  managementFee: Decimal;
  performanceFee: Decimal;
  closingCapital: Decimal;
  units: Decimal;
  navPerUnit: Decimal | null;
  ownershipRatio: Decimal;
}

export interface LotResult {
  lotId: string;
  units: Decimal;
  hwmPerUnit: Decimal;
  hwmDate: IsoDate;
  accrued: Decimal;
  crystallized: Decimal;
  unitsCancelled: Decimal;
}

export interface PositionResult {
  connection: string;
  symbol: string;
  quantity: Decimal;
  cost: Decimal;
  price: Decimal;
  marketValue: Decimal;
}

export interface AssetResult {
  symbol: string;
  quantity: Decimal;
  price: Decimal;
  marketValue: Decimal;
  netTrades: Decimal;
  realizedPnl: Decimal;
}

export interface FlowResult {
  flowId: string;
  outcome: 'executed' | 'failed';
  amount: Decimal;
  units: Decimal;
  navPerUnit: Decimal;
  performanceFeeCrystallized: Decimal;
}

export interface RunSummary {
  openingNav: Decimal;
  grossAssetValue: Decimal;
  totalLiabilities: Decimal;
  nav: Decimal;
  investmentPnl: Decimal;
  expenses: Decimal;
  managementFee: Decimal;
  performanceFee: Decimal;
  subscriptions: Decimal;
  redemptions: Decimal;
}

export interface DayValuation {
  ok: true;
  date: IsoDate;
  state: EngineState;
  entries: JournalEntryDraft[];
  summary: RunSummary;
  classes: ClassResult[];
  capitalAccounts: CapitalAccountResult[];
  lots: LotResult[];
  newLots: LotState[];
  positions: PositionResult[];
  assets: AssetResult[];
  flows: FlowResult[];
}

export interface DayFailure {
  ok: false;
  date: IsoDate;
  reason: string;
}

export type DayOutcome = DayValuation | DayFailure;
