import { fundScopedId } from '../ids';
import { endOfMonth } from '../dates';
import type { ChangeVerdict, ImportContext, Restatement, StoredChange } from './import-rules';
import { adminNavRestatement, expenseChange, flowChange, lpReportChange, notBeforeInception } from './import-rules';
import { type RowReader } from './row-validation';

export type { ChangeVerdict, ImportContext, Restatement, StoredChange };

export interface CsvFileSpec {
  file: string;
  table: string;
  columns: string[];
  /** SQL column name, the PostgreSQL array type its values are sent as, and the CSV column it comes from when named otherwise. */
  insert: [string, string, string?][];
  conflict: string;
  /** Values in `insert` order (fund_id excluded), or null when the reader found a problem. */
  parse(r: RowReader, ctx: ImportContext): (string | null)[] | null;
  /** Reference data later files resolve against: reload after this file. */
  reloadsContext?: boolean;
  /** The `insert` column of the date from which a new row moves the books (the NAV is redone from it). */
  navDate?: string;
  /** Columns a re-import may change, and the rule that says when. */
  updatable?: string[];
  reimport?(c: StoredChange): ChangeVerdict;
  restatement?(c: StoredChange): Restatement; // an update the report lists with both values (a restated NAV)
  /** Columns not compared on re-import (informational, taken from fund.json at the time). */
  unchecked?: string[];
}

const SYMBOL = /^[A-Z0-9][A-Z0-9.-]{0,19}$/;
const CODE = /^[a-z0-9][a-z0-9-]{0,62}$/;
const EXTERNAL_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;

const ok = (r: RowReader, values: (string | null)[]) => (r.problem ? null : values);

export const CSV_FILES: CsvFileSpec[] = [
  {
    file: 'instruments.csv',
    table: 'instruments',
    columns: ['symbol', 'name', 'asset_class', 'currency'],
    insert: [
      ['id', 'uuid'],
      ['symbol', 'text'],
      ['name', 'text'],
      ['asset_class', 'text'],
      ['currency', 'text'],
    ],
    conflict: '(fund_id, symbol)',
    reloadsContext: true,
    parse(r, ctx) {
      const symbol = r.pattern('symbol', SYMBOL, 'an upper-case symbol like BTC');
      const name = r.text('name');
      const assetClass = r.oneOf('asset_class', ['crypto', 'equity', 'commodity', 'stablecoin', 'cash']);
      const currency = r.pattern('currency', /^[A-Z]{3}$/, 'a 3-letter currency code');
      if (assetClass === 'cash' && symbol && symbol !== ctx.baseCurrency)
        r.reject('symbol', `the cash instrument must be the base currency ${ctx.baseCurrency}`);
      return ok(r, [fundScopedId(ctx.fundId, 'instrument', symbol), symbol, name, assetClass, currency]);
    },
  },
  {
    file: 'connections.csv',
    table: 'connections',
    columns: ['code', 'name', 'venue', 'source_type', 'mode'],
    insert: [
      ['id', 'uuid'],
      ['code', 'text'],
      ['name', 'text'],
      ['venue', 'text'],
      ['source_type', 'text'],
      ['mode', 'text'],
    ],
    conflict: '(fund_id, code)',
    reloadsContext: true,
    parse(r, ctx) {
      const code = r.pattern('code', CODE, 'a lower-case code like coinbase-prime');
      const values = [
        fundScopedId(ctx.fundId, 'connection', code),
        code,
        r.text('name'),
        r.text('venue'),
        r.oneOf('source_type', ['exchange', 'custody', 'bank', 'broker']),
        r.oneOf('mode', ['live', 'paper']),
      ];
      return ok(r, values);
    },
  },
  {
    file: 'investors.csv',
    table: 'investors',
    columns: ['investor_id', 'display_name', 'investor_type', 'status', 'legal_name', 'email', 'address', 'tax_id'],
    insert: [
      ['id', 'uuid'],
      ['external_id', 'text', 'investor_id'],
      ['display_name', 'text'],
      ['investor_type', 'text'],
      ['status', 'text'],
      ['legal_name', 'text'],
      ['email', 'text'],
      ['postal_address', 'text', 'address'],
      ['tax_id', 'text'],
    ],
    conflict: '(fund_id, external_id)',
    reloadsContext: true,
    // the register's static data: a re-import updates it (nothing in the books depends on it)
    updatable: ['display_name', 'investor_type', 'status', 'legal_name', 'email', 'postal_address', 'tax_id'],
    reimport: () => ({ update: true, navDate: null }),
    parse(r, ctx) {
      const id = r.pattern('investor_id', EXTERNAL_ID, 'an investor id like INV001');
      const values = [
        fundScopedId(ctx.fundId, 'investor', id),
        id,
        r.text('display_name', 200),
        r.text('investor_type', 50),
        r.oneOf('status', ['active', 'pending', 'redeemed', 'closed']),
        r.text('legal_name'),
        r.pattern('email', /^[^@\s]+@[^@\s]+\.[^@\s]+$/, 'an email address'),
        r.text('address'),
        r.text('tax_id', 50),
      ];
      return ok(r, values);
    },
  },
  {
    file: 'prices.csv',
    table: 'prices',
    columns: ['date', 'symbol', 'close'],
    insert: [
      ['instrument_id', 'uuid', 'symbol'],
      ['price_date', 'date', 'date'],
      ['close', 'numeric'],
    ],
    conflict: '(fund_id, instrument_id, price_date)',
    navDate: 'price_date',
    // a corrected close: the NAV is redone from its date
    updatable: ['close'],
    reimport: (c) => ({ update: true, navDate: c.stored.price_date }),
    parse(r, ctx) {
      const date = r.date('date');
      const instrument = r.ref('symbol', ctx.instruments, 'instrument');
      if (instrument?.assetClass === 'cash') r.reject('symbol', 'the base currency has no price');
      const close = r.decimal('close', 'positive');
      return ok(r, [instrument?.id ?? null, date, close]);
    },
  },
  {
    file: 'trades.csv',
    table: 'trades',
    columns: ['trade_id', 'executed_at', 'connection', 'symbol', 'side', 'quantity', 'price', 'fee', 'fee_currency'],
    insert: [
      ['external_id', 'text', 'trade_id'],
      ['executed_at', 'timestamptz'],
      ['trade_date', 'date', 'executed_at'],
      ['connection_id', 'uuid', 'connection'],
      ['instrument_id', 'uuid', 'symbol'],
      ['side', 'text'],
      ['quantity', 'numeric'],
      ['price', 'numeric'],
      ['fee', 'numeric'],
      ['fee_currency', 'text'],
    ],
    conflict: '(fund_id, external_id)',
    navDate: 'trade_date',
    parse(r, ctx) {
      const id = r.pattern('trade_id', EXTERNAL_ID, 'a trade id');
      const executedAt = r.timestamp('executed_at');
      r.notAfterToday('executed_at', notBeforeInception(r, 'executed_at', executedAt.slice(0, 10), ctx), 'a trade');
      const connection = r.ref('connection', ctx.connections, 'connection');
      const instrument = r.ref('symbol', ctx.instruments, 'instrument');
      if (instrument?.assetClass === 'cash') r.reject('symbol', 'cash is moved with transfers, not traded');
      const side = r.oneOf('side', ['buy', 'sell']);
      const quantity = r.decimal('quantity', 'positive');
      const price = r.decimal('price', 'positive');
      const fee = r.decimal('fee', 'non-negative');
      const feeCurrency = r.text('fee_currency');
      if (feeCurrency && feeCurrency !== ctx.baseCurrency)
        r.reject('fee_currency', `must be the base currency ${ctx.baseCurrency}, got "${feeCurrency}"`);
      return ok(r, [
        id,
        executedAt,
        executedAt.slice(0, 10),
        connection?.id ?? null,
        instrument?.id ?? null,
        side,
        quantity,
        price,
        fee,
        feeCurrency,
      ]);
    },
  },
  {
    file: 'transfers.csv',
    table: 'transfers',
    columns: ['transfer_id', 'date', 'from_connection', 'to_connection', 'symbol', 'quantity'],
    insert: [
      ['id', 'uuid'],
      ['external_id', 'text', 'transfer_id'],
      ['transfer_date', 'date', 'date'],
      ['from_connection_id', 'uuid', 'from_connection'],
      ['to_connection_id', 'uuid', 'to_connection'],
      ['instrument_id', 'uuid', 'symbol'],
      ['quantity', 'numeric'],
    ],
    conflict: '(fund_id, external_id)',
    navDate: 'transfer_date',
    parse(r, ctx) {
      const id = r.pattern('transfer_id', EXTERNAL_ID, 'a transfer id');
      const date = r.date('date');
      notBeforeInception(r, 'date', date, ctx);
      const from = r.ref('from_connection', ctx.connections, 'connection');
      const to = r.ref('to_connection', ctx.connections, 'connection');
      if (from && to && from.id === to.id) r.reject('to_connection', 'must differ from from_connection');
      if (from && to && from.mode !== to.mode)
        r.reject('to_connection', 'cannot move holdings between a live and a paper connection');
      const instrument = r.ref('symbol', ctx.instruments, 'instrument');
      const quantity = r.decimal('quantity', 'positive', instrument?.assetClass === 'cash' ? 2 : 10);
      return ok(r, [
        fundScopedId(ctx.fundId, 'transfer', id),
        id,
        date,
        from?.id ?? null,
        to?.id ?? null,
        instrument?.id ?? null,
        quantity,
      ]);
    },
  },
  {
    file: 'capital-flows.csv',
    table: 'capital_activity',
    columns: [
      'flow_id',
      'investor_id',
      'share_class',
      'type',
      'amount',
      'fraction',
      'dealing_date',
      'status',
      'created_at',
    ],
    insert: [
      ['id', 'uuid'],
      ['external_id', 'text', 'flow_id'],
      ['investor_id', 'uuid'],
      ['share_class_id', 'uuid', 'share_class'],
      ['type', 'text'],
      ['requested_amount', 'numeric', 'amount'],
      ['requested_fraction', 'numeric', 'fraction'],
      ['dealing_date', 'date'],
      ['status', 'text'],
      ['created_at', 'timestamptz'],
    ],
    conflict: '(fund_id, external_id)',
    navDate: 'dealing_date',
    updatable: ['status'],
    reimport: flowChange,
    parse(r, ctx) {
      const id = r.pattern('flow_id', EXTERNAL_ID, 'a flow id');
      const investor = r.ref('investor_id', ctx.investors, 'investor');
      const shareClass = r.ref('share_class', ctx.shareClasses, 'share class');
      const type = r.oneOf('type', ['subscription', 'redemption']);
      const amount = r.optionalDecimal('amount', 'positive', 2);
      const fraction = r.optionalDecimal('fraction', 'positive', 8);
      if (fraction !== null && Number(fraction) > 1) r.reject('fraction', `must be at most 1, got "${fraction}"`);
      if ((amount === null) === (fraction === null))
        r.reject(amount === null ? 'amount' : 'fraction', 'exactly one of amount and fraction must be given');
      if (type === 'subscription' && amount === null) r.reject('amount', 'a subscription needs an amount');
      const values = [
        fundScopedId(ctx.fundId, 'capital-activity', id),
        id,
        investor ?? null,
        shareClass ?? null,
        type,
        amount,
        fraction,
        notBeforeInception(r, 'dealing_date', r.date('dealing_date'), ctx),
        r.oneOf('status', ['pending', 'running', 'executed', 'settled', 'cancelled', 'failed']),
        r.timestamp('created_at'),
      ];
      return ok(r, values);
    },
  },
  {
    file: 'expenses.csv',
    table: 'expenses',
    columns: [
      'expense_id',
      'category',
      'vendor',
      'description',
      'accrual_date',
      'amount',
      'currency',
      'status',
      'paid_date',
    ],
    insert: [
      ['id', 'uuid'],
      ['external_id', 'text', 'expense_id'],
      ['category', 'text'],
      ['vendor', 'text'],
      ['description', 'text'],
      ['accrual_date', 'date'],
      ['period_end', 'date', 'accrual_date'],
      ['amount', 'numeric'],
      ['currency', 'text'],
      ['status', 'text'],
      ['paid_date', 'date'],
    ],
    conflict: '(fund_id, external_id)',
    navDate: 'accrual_date',
    updatable: ['status', 'paid_date'],
    reimport: expenseChange,
    parse(r, ctx) {
      const id = r.pattern('expense_id', EXTERNAL_ID, 'an expense id');
      const category = r.oneOf('category', ['administration', 'audit', 'legal', 'other']);
      const vendor = r.text('vendor');
      const description = r.text('description');
      const accrual = r.date('accrual_date');
      // the inception day starts with no capital and earlier days are never valued: such an expense
      // failed every NAV run from inception (on the day) or was accrued only in part (before it)
      if (accrual && ctx.inceptionDate && accrual <= ctx.inceptionDate)
        r.reject('accrual_date', `must be after the fund's inception ${ctx.inceptionDate}`);
      const amount = r.decimal('amount', 'positive', 2);
      const currency = r.text('currency');
      if (currency && currency !== ctx.baseCurrency)
        r.reject('currency', `must be the base currency ${ctx.baseCurrency}, got "${currency}"`);
      const status = r.oneOf('status', ['accrued', 'paid']);
      const paid = r.optionalDate('paid_date');
      if (status === 'paid' && paid === null) r.reject('paid_date', 'is required when status is paid');
      if (status === 'accrued' && paid !== null)
        r.reject('paid_date', 'must be empty while the expense is only accrued');
      if (paid && accrual && paid < accrual) r.reject('paid_date', 'is before accrual_date');
      const periodEnd = accrual ? endOfMonth(accrual) : null;
      return ok(r, [
        fundScopedId(ctx.fundId, 'expense', id),
        id,
        category,
        vendor,
        description,
        accrual,
        periodEnd,
        amount,
        currency,
        status,
        paid,
      ]);
    },
  },
  {
    file: 'admin-navs.csv',
    table: 'admin_navs',
    columns: ['date', 'nav'],
    insert: [
      ['valuation_date', 'date', 'date'],
      ['net_asset_value', 'numeric', 'nav'],
      ['administrator', 'text'],
    ],
    conflict: '(fund_id, valuation_date)',
    // a restated NAV: reconciliation compares the new figure; admin_nav_versions keeps the one replaced
    updatable: ['net_asset_value'],
    reimport: () => ({ update: true, navDate: null }),
    restatement: adminNavRestatement,
    unchecked: ['administrator'],
    parse(r, ctx) {
      const date = notBeforeInception(r, 'date', r.date('date'), ctx);
      r.notAfterToday('date', date, "an administrator's NAV");
      return ok(r, [date, r.decimal('nav', 'positive', 2), ctx.administrator]);
    },
  },
  {
    file: 'lp-reports.csv',
    table: 'lp_reports',
    columns: ['report_id', 'period_start', 'period_end', 'status', 'preview', 'distributed_at'],
    insert: [
      ['id', 'uuid'],
      ['external_id', 'text', 'report_id'],
      ['period_start', 'date'],
      ['period_end', 'date'],
      ['status', 'text'],
      ['preview', 'text'],
      ['distributed_at', 'timestamptz'],
    ],
    conflict: '(fund_id, external_id)',
    reimport: lpReportChange,
    parse(r, ctx) {
      const id = r.pattern('report_id', EXTERNAL_ID, 'a report id');
      const start = r.date('period_start');
      const end = r.date('period_end');
      if (start && end && end < start) r.reject('period_end', 'is before period_start');
      const status = r.oneOf('status', ['draft', 'distributed']);
      const preview = r.text('preview', 2000);
      const distributedAt = r.optionalTimestamp('distributed_at');
      if (status === 'distributed' && distributedAt === null)
        r.reject('distributed_at', 'is required when status is distributed');
      return ok(r, [fundScopedId(ctx.fundId, 'lp-report', id), id, start, end, status, preview, distributedAt]);
    },
  },
];
