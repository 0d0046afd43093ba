import { Injectable } from '@nestjs/common';
import { ReadReplica } from '../../database/read-replica';
import { SqlRepository } from '../../database/sql-repository';
import { OrderedReads } from '../common/ordered-read.repository';
import { utcMicros } from '../../database/sql-fragments';

export interface TradeRow {
  id: string;
  executed_at: string;
  symbol: string;
  side: string;
  quantity: string;
  price: string;
  fee: string;
  fee_currency: string;
  /** the fee is in the fund's base currency (money: 2 decimals), not in a traded asset (a quantity) */
  fee_in_base: boolean;
  venue: string;
}

export interface TradeFilter {
  fromTs: string | null;
  toTs: string | null;
  symbol: string | null;
  side: string | null;
  after: { executedAt: string; id: string } | null;
  limit: number;
}

@Injectable()
export class TradesRepository extends SqlRepository {
  constructor(
    private readonly reads: ReadReplica,
    private readonly ordered: OrderedReads,
  ) {
    super(reads);
  }

  /**
   * One keyset page, most recent first. The position (executed_at, id) is compared as a row
   * value so the (fund_id, executed_at desc, id desc) index seeks straight to it: the cost of a
   * page does not depend on its depth. Trades of paper connections never appear.
   * Read through `OrderedReads` so the plan is that index walk even without planner statistics.
   */
  tradesForFund(fundId: string, f: TradeFilter): Promise<TradeRow[]> {
    const params = [
      fundId,
      f.fromTs,
      f.toTs,
      f.symbol,
      f.side,
      f.after?.executedAt ?? null,
      f.after?.id ?? null,
      f.limit,
    ];
    return this.reads.run((db) => this.ordered.read<TradeRow>(db, PAGE_SQL, params));
  }
}

const PAGE_SQL = `SELECT t.id::text AS id,
              ${utcMicros('t.executed_at')} AS executed_at,
              i.symbol, t.side, t.quantity::text, t.price::text, t.fee::text, t.fee_currency, c.venue,
              t.fee_currency = (SELECT f.base_currency FROM funds f WHERE f.id = $1) AS fee_in_base
         FROM trades t
         JOIN connections c ON c.id = t.connection_id AND c.fund_id = $1 AND c.mode = 'live'
         JOIN instruments i ON i.id = t.instrument_id AND i.fund_id = $1
        WHERE t.fund_id = $1
          AND ($2::timestamptz IS NULL OR t.executed_at >= $2::timestamptz)
          AND ($3::timestamptz IS NULL OR t.executed_at < $3::timestamptz)
          AND ($4::text IS NULL OR t.instrument_id = (SELECT id FROM instruments WHERE fund_id = $1 AND symbol = $4))
          AND ($5::text IS NULL OR t.side = $5)
          AND ($6::timestamptz IS NULL OR (t.executed_at, t.id) < ($6::timestamptz, $7::bigint))
        ORDER BY t.executed_at DESC, t.id DESC
        LIMIT $8`;
