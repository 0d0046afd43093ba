import { type CrystallizationFrequency, type IsoDate, dateRange } from '../dates';
import { Decimal, ZERO } from '../money';
import { type DayInputs, type FlowEvent, type FundTerms, type TradeEvent, type TransferEvent } from './engine-types';
import { type ExpenseTerms, expenseEventForDay } from './expense-accrual';
import { SqlRepository } from '../../database/sql-repository';
import { utcMicros } from '../../database/sql-fragments';

export interface FundCalendar {
  inceptionDate: IsoDate;
  lastPriceDate: IsoDate | null;
}

/** The arguments of every range query: fund, first date, last date. */
type RangeArgs = [fundId: string, from: IsoDate, to: IsoDate];
/** An event with the date it belongs to. */
type Dated<E> = { d: IsoDate; event: E };

/** Reads a fund's terms and raw events for the NAV engine; every query is fund-scoped. */
export class NavInputsRepository extends SqlRepository {
  async fundTerms(fundId: string): Promise<FundTerms> {
    const [fund] = await this.q.query(
      `SELECT id, base_currency, cash_connection_code, settlement_days FROM funds WHERE id = $1`,
      [fundId],
    );
    if (!fund) throw new Error(`fund ${fundId} does not exist`);
    const classes = await this.q.query(
      `SELECT id, name, mgmt_fee_annual_rate::text AS mgmt, perf_fee_rate::text AS perf, hurdle_annual_rate::text AS hurdle,
              crystallization_frequency, fee_exempt, initial_nav_per_unit::text AS initial
         FROM share_classes WHERE fund_id = $1 ORDER BY sort_order, name`,
      [fundId],
    );
    const connections = await this.q.query(`SELECT code, source_type, mode FROM connections WHERE fund_id = $1`, [
      fundId,
    ]);
    const stablecoins = await this.q.query(
      `SELECT symbol FROM instruments WHERE fund_id = $1 AND asset_class = 'stablecoin'`,
      [fundId],
    );
    return {
      fundId,
      baseCurrency: fund.base_currency.trim(),
      cashConnection: fund.cash_connection_code,
      settlementDays: fund.settlement_days,
      classes: classes.map((c: Record<string, string | boolean | null>) => ({
        id: c.id as string,
        name: c.name as string,
        mgmtFeeAnnualRate: new Decimal(c.mgmt as string),
        perfFeeRate: new Decimal(c.perf as string),
        hurdleAnnualRate: c.hurdle === null ? null : new Decimal(c.hurdle as string),
        crystallizationFrequency: c.crystallization_frequency as CrystallizationFrequency,
        feeExempt: c.fee_exempt as boolean,
        initialNavPerUnit: new Decimal(c.initial as string),
      })),
      connections: new Map(
        connections.map((c: { code: string; source_type: 'bank'; mode: 'live' }) => [
          c.code,
          { code: c.code, sourceType: c.source_type, mode: c.mode },
        ]),
      ),
      stablecoins: new Set(stablecoins.map((s: { symbol: string }) => s.symbol)),
    };
  }

  async calendar(fundId: string): Promise<FundCalendar> {
    const [row] = await this.q.query(
      `SELECT f.inception_date::text AS inception, (SELECT max(price_date)::text FROM prices WHERE fund_id = f.id) AS last_price
         FROM funds f WHERE f.id = $1`,
      [fundId],
    );
    return { inceptionDate: row.inception, lastPriceDate: row.last_price };
  }

  /** The raw events of every date in [from, to], trades of live connections only, in booking order. */
  async dayInputs(fundId: string, from: IsoDate, to: IsoDate): Promise<DayInputs[]> {
    const range: RangeArgs = [fundId, from, to];
    const [prices, trades, transfers, flows, expenses, manual] = await Promise.all([
      this.prices(range),
      this.trades(range),
      this.transfers(range),
      this.flows(range),
      this.expenses(range),
      this.manualPnl(range),
    ]);
    const days = new Map<string, DayInputs>(
      dateRange(from, to).map((d) => [
        d,
        {
          date: d,
          prices: new Map(),
          trades: [],
          transfers: [],
          flows: [],
          expenses: [],
          manualPnl: ZERO,
        },
      ]),
    );
    for (const p of prices) days.get(p.d)!.prices.set(p.symbol, p.close);
    for (const t of trades) days.get(t.d)!.trades.push(t.event);
    for (const t of transfers) days.get(t.d)!.transfers.push(t.event);
    for (const f of flows) days.get(f.d)!.flows.push(f.event);
    for (const day of days.values()) {
      for (const e of expenses) {
        const event = expenseEventForDay(e, day.date);
        if (event) day.expenses.push(event);
      }
    }
    for (const m of manual) days.get(m.d)!.manualPnl = m.pnl;
    return [...days.values()];
  }

  private async prices(range: RangeArgs): Promise<{ d: IsoDate; symbol: string; close: Decimal }[]> {
    const rows = await this.q.query(
      `SELECT p.price_date::text AS d, i.symbol, p.close::text AS close FROM prices p JOIN instruments i ON i.id = p.instrument_id
        WHERE p.fund_id = $1 AND p.price_date BETWEEN $2 AND $3`,
      range,
    );
    return rows.map((p: Record<string, string>) => ({ d: p.d, symbol: p.symbol, close: new Decimal(p.close) }));
  }

  private async trades(range: RangeArgs): Promise<Dated<TradeEvent>[]> {
    const rows = await this.q.query(
      `SELECT t.trade_date::text AS d, t.external_id, ${utcMicros('t.executed_at')} AS at,
              c.code, i.symbol, t.side, t.quantity::text AS quantity, t.price::text AS price, t.fee::text AS fee
         FROM trades t JOIN connections c ON c.id = t.connection_id JOIN instruments i ON i.id = t.instrument_id
        WHERE t.fund_id = $1 AND t.trade_date BETWEEN $2 AND $3 AND c.mode = 'live'
        ORDER BY t.executed_at, t.external_id`,
      range,
    );
    return rows.map((t: Record<string, string>) => ({
      d: t.d,
      event: {
        ref: t.external_id,
        executedAt: t.at,
        connection: t.code,
        symbol: t.symbol,
        side: t.side as TradeEvent['side'],
        quantity: new Decimal(t.quantity),
        price: new Decimal(t.price),
        fee: new Decimal(t.fee),
      },
    }));
  }

  private async transfers(range: RangeArgs): Promise<Dated<TransferEvent>[]> {
    const rows = await this.q.query(
      `SELECT t.transfer_date::text AS d, t.external_id, f.code AS from_code, c.code AS to_code, i.symbol, t.quantity::text AS quantity
         FROM transfers t JOIN connections f ON f.id = t.from_connection_id JOIN connections c ON c.id = t.to_connection_id
         JOIN instruments i ON i.id = t.instrument_id
        WHERE t.fund_id = $1 AND t.transfer_date BETWEEN $2 AND $3 ORDER BY t.transfer_date, t.external_id`,
      range,
    );
    return rows.map((t: Record<string, string>) => ({
      d: t.d,
      event: {
        ref: t.external_id,
        fromConnection: t.from_code,
        toConnection: t.to_code,
        symbol: t.symbol,
        quantity: new Decimal(t.quantity),
      },
    }));
  }

  private async flows(range: RangeArgs): Promise<Dated<FlowEvent>[]> {
    const rows = await this.q.query(
      `SELECT dealing_date::text AS d, id, external_id, investor_id, share_class_id, type,
              requested_amount::text AS amount, requested_fraction::text AS fraction
         FROM capital_activity
        WHERE fund_id = $1 AND dealing_date BETWEEN $2 AND $3 AND status IN ('pending', 'running', 'executed', 'settled')
        ORDER BY dealing_date, external_id`,
      range,
    );
    return rows.map((f: Record<string, string | null>) => ({
      d: f.d as string,
      event: {
        ref: f.external_id as string,
        flowId: f.id as string,
        investorId: f.investor_id as string,
        classId: f.share_class_id as string,
        type: f.type as FlowEvent['type'],
        amount: f.amount === null ? null : new Decimal(f.amount),
        fraction: f.fraction === null ? null : new Decimal(f.fraction),
      },
    }));
  }

  /** Expenses accruing or paid within the range (each day takes its share in `dayInputs`). */
  private async expenses(range: RangeArgs): Promise<ExpenseTerms[]> {
    const rows = await this.q.query(
      `SELECT external_id, category, description, accrual_date::text AS accrual, period_end::text AS period_end,
              amount::text AS amount, paid_date::text AS paid
         FROM expenses WHERE fund_id = $1 AND accrual_date <= $3 AND (period_end >= $2 OR paid_date BETWEEN $2 AND $3)
        ORDER BY external_id`,
      range,
    );
    return rows.map((e: Record<string, string | null>) => ({
      ref: e.external_id as string,
      category: e.category as string,
      description: e.description as string,
      accrualDate: e.accrual as string,
      periodEnd: e.period_end as string,
      amount: new Decimal(e.amount as string),
      paidDate: e.paid,
    }));
  }

  /** Income and expense booked by manual journal entries (not by a NAV run), per date. */
  private async manualPnl(range: RangeArgs): Promise<{ d: IsoDate; pnl: Decimal }[]> {
    const rows = await this.q.query(
      `SELECT l.entry_date::text AS d, sum(l.credit - l.debit)::text AS pnl
         FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
         JOIN chart_of_accounts a ON a.fund_id = l.fund_id AND a.code = l.account_code
        WHERE l.fund_id = $1 AND l.entry_date BETWEEN $2 AND $3 AND e.nav_run_id IS NULL AND a.account_type IN ('income', 'expense')
        GROUP BY l.entry_date`,
      range,
    );
    return rows.map((m: Record<string, string>) => ({ d: m.d, pnl: new Decimal(m.pnl) }));
  }
}
