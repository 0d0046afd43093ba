import { Injectable } from '@nestjs/common';
import { invalidParameter } from '../../common/errors/problem';
import { CursorCodec } from '../../common/pagination/cursor';
import { addDays } from '../../common/validation/calendar-date';
import { D, money, moneyExact, qty } from '../common/decimals';
import { assertOrdered } from '../common/query-params';
import { TradesPageDto, TradesQueryDto } from './trades.dto';
import { TradesRepository } from './trades.repository';

/** The listing and its filters: a cursor of the same fund under other filters fails the signature. */
export const tradesCursorKind = (q: Partial<TradesQueryDto>) =>
  `fund-trades:${JSON.stringify([q.symbol ?? null, q.side ?? null, q.from ?? null, q.to ?? null])}`;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

@Injectable()
export class TradesService {
  constructor(
    private readonly repo: TradesRepository,
    private readonly cursors: CursorCodec,
  ) {}

  async trades(fundId: string, q: TradesQueryDto): Promise<TradesPageDto> {
    assertOrdered(q.from, q.to);
    const limit = q.limit ?? 100;
    let after: { executedAt: string; id: string } | null = null;
    if (q.cursor !== undefined) {
      // The cursor is bound to the fund as well: another fund's cursor is not valid here.
      const pos = this.cursors.decode(tradesCursorKind(q), q.cursor, { f: 'uuid', t: 'timestamp', i: 'bigint' });
      if (pos.f !== fundId || !TIMESTAMP.test(pos.t)) {
        throw invalidParameter('cursor', 'is not a valid cursor for this listing');
      }
      after = { executedAt: pos.t, id: pos.i };
    }
    const rows = await this.repo.tradesForFund(fundId, {
      fromTs: q.from ? `${q.from}T00:00:00Z` : null,
      toTs: q.to ? `${addDays(q.to, 1)}T00:00:00Z` : null,
      symbol: q.symbol ?? null,
      side: q.side ?? null,
      after,
      limit: limit + 1,
    });
    const hasMore = rows.length > limit;
    const page = hasMore ? rows.slice(0, limit) : rows;
    const last = page[page.length - 1];
    return {
      items: page.map((r) => ({
        id: r.id,
        executedAt: r.executed_at.replace(/(\.\d{3})\d{3}Z$/, '$1Z'),
        symbol: r.symbol,
        side: r.side,
        quantity: qty(r.quantity),
        price: qty(r.price),
        notional: money(new D(r.quantity).times(r.price)),
        fee: r.fee_in_base ? moneyExact(r.fee) : qty(r.fee), // base-currency money (≥ 2 decimals, a sub-cent fee kept); a crypto fee is a quantity
        feeCurrency: r.fee_currency,
        venue: r.venue,
      })),
      nextCursor:
        hasMore && last
          ? this.cursors.encode(tradesCursorKind(q), { f: fundId, t: last.executed_at, i: last.id })
          : null,
      hasMore,
    };
  }
}
