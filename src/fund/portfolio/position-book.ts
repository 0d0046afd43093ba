import { ACCOUNTS } from '../ledger/chart-of-accounts';
import { EntryBuilder, type JournalEntryDraft } from '../ledger/journal-entry';
import { Decimal, ZERO, toCents } from '../money';
import { type ConnectionTerms, type PositionState, type TradeEvent, type TransferEvent } from '../nav/engine-types';

export const positionKey = (connection: string, symbol: string) => `${connection}|${symbol}`;

export function cashAccountFor(connection: ConnectionTerms): string {
  return connection.sourceType === 'bank' ? ACCOUNTS.cashAtBank : ACCOUNTS.cashAtVenues;
}

/** Where a holding is carried at cost: stablecoins with cash in 1100, everything else in 1200. */
export function costAccountFor(symbol: string, stablecoins: ReadonlySet<string>): string {
  return stablecoins.has(symbol) ? ACCOUNTS.cashAtVenues : ACCOUNTS.investmentsAtCost;
}

/** Positions (cash included, as the base-currency symbol) per connection and asset. */
export class PositionBook {
  constructor(
    readonly positions: Map<string, PositionState>,
    private readonly cashSymbol: string,
  ) {}

  get(connection: string, symbol: string): PositionState {
    const key = positionKey(connection, symbol);
    let p = this.positions.get(key);
    if (!p) {
      p = { connection, symbol, quantity: ZERO, cost: ZERO };
      this.positions.set(key, p);
    }
    return p;
  }

  moveCash(connection: string, amount: Decimal): void {
    const cash = this.get(connection, this.cashSymbol);
    cash.quantity = cash.quantity.plus(amount);
    cash.cost = cash.quantity;
  }
}

export interface TradePosting {
  entry: JournalEntryDraft;
  realized: Decimal;
  fee: Decimal;
  /** Cash paid for the asset (buys, fee included) minus cash received (sells, net of fee). */
  netTrade: Decimal;
}

/**
 * Books one trade: average cost per connection and asset, realized gain on the part that
 * reduces a position, shorts carried as a liability at proceeds. A trade that crosses zero is
 * booked as a close and an open in one entry.
 */
export function postTrade(
  book: PositionBook,
  trade: TradeEvent,
  connection: ConnectionTerms,
  date: string,
  stablecoins: ReadonlySet<string> = new Set(),
): TradePosting {
  const pos = book.get(trade.connection, trade.symbol);
  const notional = toCents(trade.quantity.times(trade.price));
  const fee = toCents(trade.fee);
  const cashAccount = cashAccountFor(connection);
  const costAccount = costAccountFor(trade.symbol, stablecoins);
  const sign = trade.side === 'buy' ? 1 : -1;
  const label = `${trade.side} ${trade.quantity.toString()} ${trade.symbol} @ ${trade.price.toString()} on ${trade.connection}`;
  const entry = new EntryBuilder(date, 'trade', trade.ref, label);

  // The part of the trade that reduces the existing position (long sold, short covered).
  const reducing =
    pos.quantity.isZero() || Math.sign(pos.quantity.toNumber()) === sign
      ? ZERO
      : Decimal.min(trade.quantity, pos.quantity.abs());
  const opening = trade.quantity.minus(reducing);
  const reducingNotional = reducing.equals(trade.quantity) ? notional : toCents(reducing.times(trade.price));
  const openingNotional = notional.minus(reducingNotional);

  let realized = ZERO;
  if (reducing.gt(0)) {
    const relieved = reducing.equals(pos.quantity.abs())
      ? pos.cost
      : toCents(pos.cost.times(reducing).dividedBy(pos.quantity.abs()));
    // relieved is signed: positive cost of a long, negative proceeds of a short.
    realized = trade.side === 'sell' ? reducingNotional.minus(relieved) : relieved.negated().minus(reducingNotional);
    if (pos.quantity.isPositive()) entry.post(costAccount, relieved.negated());
    else entry.post(ACCOUNTS.securitiesSoldShort, relieved.negated());
    entry.post(ACCOUNTS.realizedGains, realized.negated());
    pos.cost = pos.cost.minus(relieved);
    pos.quantity = pos.quantity.minus(reducing.times(Math.sign(pos.quantity.toNumber())));
  }
  if (opening.gt(0)) {
    if (trade.side === 'buy') entry.post(costAccount, openingNotional);
    else entry.post(ACCOUNTS.securitiesSoldShort, openingNotional.negated());
    pos.cost = pos.cost.plus(openingNotional.times(sign));
    pos.quantity = pos.quantity.plus(opening.times(sign));
  }
  entry.post(ACCOUNTS.tradingFees, fee);
  const cashMove = trade.side === 'buy' ? notional.plus(fee).negated() : notional.minus(fee);
  entry.post(cashAccount, cashMove);
  book.moveCash(trade.connection, cashMove);
  return { entry: entry.build()!, realized, fee, netTrade: cashMove.negated() };
}

/**
 * Moves cash or an asset between two connections. Cash moves are booked (the accounts may
 * differ: bank vs venue); asset moves carry their average cost and change no account.
 */
export function applyTransfer(
  book: PositionBook,
  transfer: TransferEvent,
  from: ConnectionTerms,
  to: ConnectionTerms,
  cashSymbol: string,
  date: string,
): JournalEntryDraft | null {
  if (transfer.symbol === cashSymbol) {
    const amount = toCents(transfer.quantity);
    book.moveCash(transfer.fromConnection, amount.negated());
    book.moveCash(transfer.toConnection, amount);
    const fromAccount = cashAccountFor(from);
    const toAccount = cashAccountFor(to);
    if (fromAccount === toAccount) return null;
    return new EntryBuilder(
      date,
      'transfer',
      transfer.ref,
      `transfer ${amount.toFixed(2)} ${cashSymbol} ${transfer.fromConnection} → ${transfer.toConnection}`,
    )
      .post(toAccount, amount)
      .post(fromAccount, amount.negated())
      .build();
  }
  const source = book.get(transfer.fromConnection, transfer.symbol);
  const target = book.get(transfer.toConnection, transfer.symbol);
  const movedCost = source.quantity.isZero()
    ? ZERO
    : transfer.quantity.equals(source.quantity)
      ? source.cost
      : toCents(source.cost.times(transfer.quantity).dividedBy(source.quantity));
  source.quantity = source.quantity.minus(transfer.quantity);
  source.cost = source.cost.minus(movedCost);
  target.quantity = target.quantity.plus(transfer.quantity);
  target.cost = target.cost.plus(movedCost);
  return null;
}
