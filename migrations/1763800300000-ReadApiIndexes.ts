import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Indexes for the fund read API:
 * - journal-entries sums a whole window of up to 92 days exactly; covering the amounts lets
 *   PostgreSQL sum them from the index alone (index-only scan) instead of visiting every row.
 * - trades filtered by symbol page by (executed_at desc, id desc) per instrument, so a rare
 *   symbol does not scan the fund's whole trade history.
 */
export class ReadApiIndexes1763800300000 implements MigrationInterface {
  name = 'ReadApiIndexes1763800300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX journal_lines_fund_date_amounts_idx ON journal_lines (fund_id, entry_date) INCLUDE (debit, credit)`,
    );
    await q.query(
      `CREATE INDEX trades_fund_instrument_time_idx ON trades (fund_id, instrument_id, executed_at DESC, id DESC)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX trades_fund_instrument_time_idx`);
    await q.query(`DROP INDEX journal_lines_fund_date_amounts_idx`);
  }
}
