import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Per fund, account and entry date: the number of journal lines and their debit and credit sums
 * (issue 17 item 5). Trial balance, gl-detail's opening balance and the journal window totals
 * summed every line of the fund's history: on the 1 000 000-trade fund (3.4 M lines) a parallel
 * sequential scan of journal_lines (≈ 600 ms) and a 1 M-line bitmap scan (≈ 750 ms). Summed over
 * these rows (one per account and day) they read a few thousand rows instead.
 *
 * Kept exact by statement-level triggers on journal_lines, in the writer's own transaction: an
 * insert adds its lines' counts and sums (rows in key order), a delete (only the purge of a
 * synthetic fund; posted lines are otherwise immutable) subtracts them and drops emptied days, a
 * truncate empties the table. Every journal writer holds its fund's row lock (lockBooks), so two
 * writers never update the same fund's rows at once. numeric without a typmod: a day's sum of
 * numeric(20,2) keeps scale 2, so sums over these rows print exactly as sums over the lines.
 */
export class JournalAccountDays1763800850000 implements MigrationInterface {
  name = 'JournalAccountDays1763800850000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE journal_account_days (
        fund_id uuid NOT NULL,
        account_code text NOT NULL,
        entry_date date NOT NULL,
        line_count bigint NOT NULL,
        debit numeric NOT NULL,
        credit numeric NOT NULL,
        PRIMARY KEY (fund_id, account_code, entry_date)
      )`);
    await q.query(
      `CREATE INDEX journal_account_days_fund_date_idx ON journal_account_days (fund_id, entry_date) INCLUDE (account_code, line_count, debit, credit)`,
    );
    await q.query(`
      CREATE FUNCTION journal_account_days_add() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO journal_account_days AS d (fund_id, account_code, entry_date, line_count, debit, credit)
        SELECT fund_id, account_code, entry_date, count(*), sum(debit), sum(credit)
          FROM added GROUP BY fund_id, account_code, entry_date
         ORDER BY fund_id, account_code, entry_date
        ON CONFLICT (fund_id, account_code, entry_date) DO UPDATE
          SET line_count = d.line_count + EXCLUDED.line_count,
              debit = d.debit + EXCLUDED.debit,
              credit = d.credit + EXCLUDED.credit;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION journal_account_days_remove() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE journal_account_days d
           SET line_count = d.line_count - o.n, debit = d.debit - o.debit, credit = d.credit - o.credit
          FROM (SELECT fund_id, account_code, entry_date, count(*) AS n, sum(debit) AS debit, sum(credit) AS credit
                  FROM removed GROUP BY fund_id, account_code, entry_date) o
         WHERE d.fund_id = o.fund_id AND d.account_code = o.account_code AND d.entry_date = o.entry_date;
        DELETE FROM journal_account_days d
         WHERE d.line_count = 0 AND d.fund_id IN (SELECT DISTINCT fund_id FROM removed);
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION journal_account_days_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        TRUNCATE journal_account_days;
        RETURN NULL;
      END $$`);
    // Creating the triggers locks journal_lines against writers until this migration commits, so
    // the backfill below and the triggers see exactly the same lines.
    await q.query(
      `CREATE TRIGGER journal_lines_days_insert AFTER INSERT ON journal_lines REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION journal_account_days_add()`,
    );
    await q.query(
      `CREATE TRIGGER journal_lines_days_delete AFTER DELETE ON journal_lines REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION journal_account_days_remove()`,
    );
    await q.query(
      `CREATE TRIGGER journal_lines_days_truncate AFTER TRUNCATE ON journal_lines FOR EACH STATEMENT EXECUTE FUNCTION journal_account_days_truncate()`,
    );
    await q.query(`
      INSERT INTO journal_account_days (fund_id, account_code, entry_date, line_count, debit, credit)
      SELECT fund_id, account_code, entry_date, count(*), sum(debit), sum(credit)
        FROM journal_lines GROUP BY fund_id, account_code, entry_date`);
    await q.query(`ANALYZE journal_account_days`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER journal_lines_days_truncate ON journal_lines`);
    await q.query(`DROP TRIGGER journal_lines_days_delete ON journal_lines`);
    await q.query(`DROP TRIGGER journal_lines_days_insert ON journal_lines`);
    await q.query(`DROP FUNCTION journal_account_days_truncate()`);
    await q.query(`DROP FUNCTION journal_account_days_remove()`);
    await q.query(`DROP FUNCTION journal_account_days_add()`);
    await q.query(`DROP TABLE journal_account_days`);
  }
}
