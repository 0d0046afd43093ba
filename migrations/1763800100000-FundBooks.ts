import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The fund's books: reference data, raw events, the double-entry ledger and NAV runs.
 * Every table carries fund_id; amounts are numeric (money in base currency, booked in cents).
 */
export class FundBooks1763800100000 implements MigrationInterface {
  name = 'FundBooks1763800100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE funds
        ADD COLUMN inception_date date,
        ADD COLUMN aum_target numeric(20,2),
        ADD COLUMN administrator text,
        ADD COLUMN cash_connection_code text,
        ADD COLUMN dealing_frequency text NOT NULL DEFAULT 'monthly'
          CHECK (dealing_frequency IN ('daily', 'weekly', 'monthly', 'quarterly')),
        ADD COLUMN subscription_notice_days integer NOT NULL DEFAULT 5,
        ADD COLUMN redemption_notice_days integer NOT NULL DEFAULT 30,
        ADD COLUMN settlement_days integer NOT NULL DEFAULT 3,
        ADD COLUMN management_fee_basis text NOT NULL DEFAULT 'class NAV at start of day',
        ADD COLUMN management_fee_accrual text NOT NULL DEFAULT 'daily, paid monthly',
        ADD COLUMN day_count_convention text NOT NULL DEFAULT 'ACT/365',
        ADD COLUMN performance_fee_method text NOT NULL DEFAULT 'series (per subscription lot) high-water mark',
        ADD COLUMN hurdle_type text NOT NULL DEFAULT 'hard',
        ADD COLUMN hurdle_compounding text NOT NULL DEFAULT 'annual, compounded daily (ACT/365)',
        ADD COLUMN crystallization_events text[] NOT NULL DEFAULT ARRAY['period end', 'redemption']`);

    await q.query(`
      CREATE TABLE share_classes (
        id uuid PRIMARY KEY,
        fund_id uuid NOT NULL REFERENCES funds(id),
        name text NOT NULL,
        currency char(3) NOT NULL,
        mgmt_fee_annual_rate numeric(12,8) NOT NULL CHECK (mgmt_fee_annual_rate >= 0),
        perf_fee_rate numeric(12,8) NOT NULL CHECK (perf_fee_rate >= 0),
        hurdle_annual_rate numeric(12,8),
        crystallization_frequency text NOT NULL CHECK (crystallization_frequency IN ('monthly', 'quarterly', 'semiannual', 'annual')),
        fee_exempt boolean NOT NULL DEFAULT false,
        status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed', 'soft_closed')),
        launch_date date NOT NULL,
        initial_nav_per_unit numeric(30,10) NOT NULL CHECK (initial_nav_per_unit > 0),
        sort_order integer NOT NULL,
        UNIQUE (fund_id, name)
      )`);

    await q.query(`
      CREATE TABLE investors (
        id uuid PRIMARY KEY,
        fund_id uuid NOT NULL REFERENCES funds(id),
        external_id text NOT NULL,
        display_name text NOT NULL,
        investor_type text NOT NULL,
        status text NOT NULL CHECK (status IN ('active', 'pending', 'redeemed', 'closed')),
        legal_name text NOT NULL,
        email text NOT NULL,
        postal_address text NOT NULL,
        tax_id text NOT NULL,
        UNIQUE (fund_id, external_id)
      )`);
    await q.query(`COMMENT ON COLUMN investors.legal_name IS 'PII: never leaves the service'`);

    await q.query(`
      CREATE TABLE instruments (
        id uuid PRIMARY KEY,
        fund_id uuid NOT NULL REFERENCES funds(id),
        symbol text NOT NULL,
        name text NOT NULL,
        asset_class text NOT NULL CHECK (asset_class IN ('crypto', 'equity', 'commodity', 'stablecoin', 'cash')),
        currency char(3) NOT NULL,
        UNIQUE (fund_id, symbol)
      )`);

    await q.query(`
      CREATE TABLE connections (
        id uuid PRIMARY KEY,
        fund_id uuid NOT NULL REFERENCES funds(id),
        code text NOT NULL,
        name text NOT NULL,
        venue text NOT NULL,
        source_type text NOT NULL CHECK (source_type IN ('exchange', 'custody', 'bank', 'broker')),
        mode text NOT NULL CHECK (mode IN ('live', 'paper')),
        UNIQUE (fund_id, code)
      )`);

    await q.query(`
      CREATE TABLE prices (
        fund_id uuid NOT NULL REFERENCES funds(id),
        instrument_id uuid NOT NULL REFERENCES instruments(id),
        price_date date NOT NULL,
        close numeric(30,10) NOT NULL CHECK (close > 0),
        PRIMARY KEY (fund_id, instrument_id, price_date)
      )`);
    await q.query(`CREATE INDEX prices_fund_date_idx ON prices (fund_id, price_date)`);

    await q.query(`
      CREATE TABLE trades (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        fund_id uuid NOT NULL REFERENCES funds(id),
        external_id text NOT NULL,
        executed_at timestamptz NOT NULL,
        trade_date date NOT NULL,
        connection_id uuid NOT NULL REFERENCES connections(id),
        instrument_id uuid NOT NULL REFERENCES instruments(id),
        side text NOT NULL CHECK (side IN ('buy', 'sell')),
        quantity numeric(30,10) NOT NULL CHECK (quantity > 0),
        price numeric(30,10) NOT NULL CHECK (price > 0),
        fee numeric(30,10) NOT NULL CHECK (fee >= 0),
        fee_currency char(3) NOT NULL,
        UNIQUE (fund_id, external_id)
      )`);
    await q.query(`CREATE INDEX trades_fund_time_idx ON trades (fund_id, executed_at DESC, id DESC)`);
    await q.query(`CREATE INDEX trades_fund_date_idx ON trades (fund_id, trade_date)`);

    await q.query(`
      CREATE TABLE transfers (
        id uuid PRIMARY KEY,
        fund_id uuid NOT NULL REFERENCES funds(id),
        external_id text NOT NULL,
        transfer_date date NOT NULL,
        from_connection_id uuid NOT NULL REFERENCES connections(id),
        to_connection_id uuid NOT NULL REFERENCES connections(id),
        instrument_id uuid NOT NULL REFERENCES instruments(id),
        quantity numeric(30,10) NOT NULL CHECK (quantity > 0),
        UNIQUE (fund_id, external_id)
      )`);
    await q.query(`CREATE INDEX transfers_fund_date_idx ON transfers (fund_id, transfer_date)`);

    await q.query(`
      CREATE TABLE capital_activity (
        id uuid PRIMARY KEY,
        fund_id uuid NOT NULL REFERENCES funds(id),
        external_id text NOT NULL,
        investor_id uuid NOT NULL REFERENCES investors(id),
        share_class_id uuid NOT NULL REFERENCES share_classes(id),
        type text NOT NULL CHECK (type IN ('subscription', 'redemption')),
        requested_amount numeric(20,2) CHECK (requested_amount > 0),
        requested_fraction numeric(12,8) CHECK (requested_fraction > 0 AND requested_fraction <= 1),
        dealing_date date NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'running', 'executed', 'settled', 'cancelled', 'failed')),
        created_at timestamptz NOT NULL,
        CHECK ((requested_amount IS NULL) <> (requested_fraction IS NULL)),
        CHECK (type = 'redemption' OR requested_amount IS NOT NULL),
        UNIQUE (fund_id, external_id)
      )`);
    await q.query(`CREATE INDEX capital_activity_fund_dealing_idx ON capital_activity (fund_id, dealing_date)`);
    await q.query(
      `CREATE INDEX capital_activity_fund_status_idx ON capital_activity (fund_id, status, dealing_date DESC)`,
    );

    await q.query(`
      CREATE TABLE subscription_lots (
        id uuid PRIMARY KEY,
        fund_id uuid NOT NULL REFERENCES funds(id),
        investor_id uuid NOT NULL REFERENCES investors(id),
        share_class_id uuid NOT NULL REFERENCES share_classes(id),
        capital_activity_id uuid NOT NULL REFERENCES capital_activity(id),
        issue_date date NOT NULL,
        issue_nav_per_unit numeric(30,10) NOT NULL,
        units_issued numeric(30,8) NOT NULL,
        UNIQUE (fund_id, capital_activity_id)
      )`);
    await q.query(`CREATE INDEX subscription_lots_investor_idx ON subscription_lots (fund_id, investor_id)`);

    await q.query(`
      CREATE TABLE expenses (
        id uuid PRIMARY KEY,
        fund_id uuid NOT NULL REFERENCES funds(id),
        external_id text NOT NULL,
        category text NOT NULL CHECK (category IN ('administration', 'audit', 'legal', 'other')),
        vendor text NOT NULL,
        description text NOT NULL,
        accrual_date date NOT NULL,
        period_end date NOT NULL,
        amount numeric(20,2) NOT NULL CHECK (amount > 0),
        currency char(3) NOT NULL,
        status text NOT NULL CHECK (status IN ('accrued', 'paid')),
        paid_date date,
        CHECK (period_end >= accrual_date),
        CHECK ((status = 'paid') = (paid_date IS NOT NULL)),
        UNIQUE (fund_id, external_id)
      )`);
    await q.query(`CREATE INDEX expenses_fund_accrual_idx ON expenses (fund_id, accrual_date DESC)`);

    await q.query(`
      CREATE TABLE admin_navs (
        fund_id uuid NOT NULL REFERENCES funds(id),
        valuation_date date NOT NULL,
        net_asset_value numeric(20,2) NOT NULL,
        administrator text NOT NULL,
        PRIMARY KEY (fund_id, valuation_date)
      )`);

    await q.query(`
      CREATE TABLE lp_reports (
        id uuid PRIMARY KEY,
        fund_id uuid NOT NULL REFERENCES funds(id),
        external_id text NOT NULL,
        period_start date NOT NULL,
        period_end date NOT NULL,
        status text NOT NULL CHECK (status IN ('draft', 'distributed')),
        preview text NOT NULL,
        distributed_at timestamptz,
        CHECK (period_end >= period_start),
        UNIQUE (fund_id, external_id)
      )`);
    await q.query(`CREATE INDEX lp_reports_fund_period_idx ON lp_reports (fund_id, period_end DESC)`);

    await q.query(`
      CREATE TABLE stress_presets (
        fund_id uuid NOT NULL REFERENCES funds(id),
        preset_id text NOT NULL,
        name text NOT NULL,
        description text NOT NULL,
        window_start date NOT NULL,
        window_end date NOT NULL,
        source text NOT NULL,
        PRIMARY KEY (fund_id, preset_id)
      )`);
    await q.query(`
      CREATE TABLE stress_preset_returns (
        fund_id uuid NOT NULL,
        preset_id text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('asset', 'asset_class')),
        key text NOT NULL,
        return_ratio numeric(12,8) NOT NULL,
        PRIMARY KEY (fund_id, preset_id, kind, key),
        FOREIGN KEY (fund_id, preset_id) REFERENCES stress_presets(fund_id, preset_id)
      )`);

    await q.query(`
      CREATE TABLE chart_of_accounts (
        fund_id uuid NOT NULL REFERENCES funds(id),
        code text NOT NULL,
        name text NOT NULL,
        account_type text NOT NULL CHECK (account_type IN ('asset', 'liability', 'equity', 'income', 'expense')),
        normal_balance text NOT NULL CHECK (normal_balance IN ('debit', 'credit')),
        PRIMARY KEY (fund_id, code)
      )`);

    await q.query(`
      CREATE TABLE nav_runs (
        id uuid PRIMARY KEY,
        fund_id uuid NOT NULL REFERENCES funds(id),
        valuation_date date NOT NULL,
        status text NOT NULL CHECK (status IN ('running', 'complete', 'failed', 'superseded')),
        failure_reason text,
        started_at timestamptz NOT NULL,
        completed_at timestamptz,
        supersedes_run_id uuid REFERENCES nav_runs(id),
        superseded_by_run_id uuid REFERENCES nav_runs(id),
        opening_nav numeric(20,2),
        gross_asset_value numeric(20,2),
        total_liabilities numeric(20,2),
        net_asset_value numeric(20,2),
        investment_pnl numeric(20,2),
        expenses numeric(20,2),
        management_fee numeric(20,2),
        performance_fee numeric(20,2),
        subscriptions numeric(20,2),
        redemptions numeric(20,2),
        engine_state jsonb,
        CHECK (status <> 'failed' OR failure_reason IS NOT NULL)
      )`);
    await q.query(
      `CREATE UNIQUE INDEX nav_runs_one_complete_per_date ON nav_runs (fund_id, valuation_date) WHERE status = 'complete'`,
    );
    await q.query(`CREATE INDEX nav_runs_fund_date_idx ON nav_runs (fund_id, valuation_date DESC, started_at DESC)`);

    await q.query(`
      CREATE TABLE nav_run_classes (
        nav_run_id uuid NOT NULL REFERENCES nav_runs(id),
        fund_id uuid NOT NULL REFERENCES funds(id),
        share_class_id uuid NOT NULL REFERENCES share_classes(id),
        opening_nav numeric(20,2) NOT NULL,
        pnl numeric(20,2) NOT NULL,
        expenses numeric(20,2) NOT NULL,
        management_fee numeric(20,2) NOT NULL,
        performance_fee numeric(20,2) NOT NULL,
        performance_fee_crystallized numeric(20,2) NOT NULL,
        subscriptions numeric(20,2) NOT NULL,
        redemptions numeric(20,2) NOT NULL,
        net_asset_value numeric(20,2) NOT NULL,
        units numeric(30,8) NOT NULL,
        nav_per_unit numeric(30,6),
        gross_nav_per_unit numeric(30,10),
        PRIMARY KEY (nav_run_id, share_class_id)
      )`);
    await q.query(`CREATE INDEX nav_run_classes_fund_idx ON nav_run_classes (fund_id, share_class_id)`);

    await q.query(`
      CREATE TABLE nav_run_capital_accounts (
        nav_run_id uuid NOT NULL REFERENCES nav_runs(id),
        fund_id uuid NOT NULL REFERENCES funds(id),
        investor_id uuid NOT NULL REFERENCES investors(id),
        share_class_id uuid NOT NULL REFERENCES share_classes(id),
        opening_capital numeric(20,2) NOT NULL,
        contributions numeric(20,2) NOT NULL,
        redemptions numeric(20,2) NOT NULL,
        pnl numeric(20,2) NOT NULL,
        management_fee numeric(20,2) NOT NULL,
        performance_fee numeric(20,2) NOT NULL,
        closing_capital numeric(20,2) NOT NULL,
        units numeric(30,8) NOT NULL,
        nav_per_unit numeric(30,6),
        ownership_ratio numeric(12,8) NOT NULL,
        PRIMARY KEY (nav_run_id, investor_id, share_class_id)
      )`);

    await q.query(`
      CREATE TABLE nav_run_lots (
        nav_run_id uuid NOT NULL REFERENCES nav_runs(id),
        fund_id uuid NOT NULL REFERENCES funds(id),
        lot_id uuid NOT NULL REFERENCES subscription_lots(id),
        units numeric(30,8) NOT NULL,
        hwm_per_unit numeric(30,10) NOT NULL,
        hwm_date date NOT NULL,
        accrued_performance_fee numeric(20,2) NOT NULL CHECK (accrued_performance_fee >= 0),
        crystallized_performance_fee numeric(20,2) NOT NULL CHECK (crystallized_performance_fee >= 0),
        units_cancelled numeric(30,8) NOT NULL,
        PRIMARY KEY (nav_run_id, lot_id)
      )`);

    await q.query(`
      CREATE TABLE nav_run_positions (
        nav_run_id uuid NOT NULL REFERENCES nav_runs(id),
        fund_id uuid NOT NULL REFERENCES funds(id),
        connection_id uuid NOT NULL REFERENCES connections(id),
        instrument_id uuid NOT NULL REFERENCES instruments(id),
        quantity numeric(30,10) NOT NULL,
        cost_basis numeric(20,2) NOT NULL,
        price numeric(30,10) NOT NULL,
        market_value numeric(20,2) NOT NULL,
        PRIMARY KEY (nav_run_id, connection_id, instrument_id)
      )`);

    await q.query(`
      CREATE TABLE nav_run_assets (
        nav_run_id uuid NOT NULL REFERENCES nav_runs(id),
        fund_id uuid NOT NULL REFERENCES funds(id),
        instrument_id uuid NOT NULL REFERENCES instruments(id),
        quantity numeric(30,10) NOT NULL,
        price numeric(30,10) NOT NULL,
        market_value numeric(20,2) NOT NULL,
        net_trades numeric(20,2) NOT NULL,
        realized_pnl numeric(20,2) NOT NULL,
        PRIMARY KEY (nav_run_id, instrument_id)
      )`);

    await q.query(`
      CREATE TABLE nav_run_flows (
        nav_run_id uuid NOT NULL REFERENCES nav_runs(id),
        fund_id uuid NOT NULL REFERENCES funds(id),
        capital_activity_id uuid NOT NULL REFERENCES capital_activity(id),
        amount numeric(20,2) NOT NULL,
        units numeric(30,8) NOT NULL,
        nav_per_unit numeric(30,10) NOT NULL,
        performance_fee_crystallized numeric(20,2) NOT NULL,
        PRIMARY KEY (nav_run_id, capital_activity_id)
      )`);

    await q.query(`
      CREATE TABLE journal_entries (
        id uuid PRIMARY KEY,
        fund_id uuid NOT NULL REFERENCES funds(id),
        entry_number bigint NOT NULL,
        entry_date date NOT NULL,
        posted_at timestamptz NOT NULL,
        description text NOT NULL,
        source text NOT NULL,
        source_ref text,
        nav_run_id uuid REFERENCES nav_runs(id),
        status text NOT NULL CHECK (status IN ('posted', 'reversal')),
        reverses_entry_id uuid REFERENCES journal_entries(id),
        CHECK ((status = 'reversal') = (reverses_entry_id IS NOT NULL)),
        UNIQUE (fund_id, entry_number)
      )`);
    await q.query(`CREATE INDEX journal_entries_fund_date_idx ON journal_entries (fund_id, entry_date, entry_number)`);
    await q.query(`CREATE INDEX journal_entries_run_idx ON journal_entries (nav_run_id)`);
    await q.query(
      `CREATE UNIQUE INDEX journal_entries_reverses_idx ON journal_entries (reverses_entry_id) WHERE reverses_entry_id IS NOT NULL`,
    );

    await q.query(`
      CREATE TABLE journal_lines (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        fund_id uuid NOT NULL REFERENCES funds(id),
        entry_id uuid NOT NULL REFERENCES journal_entries(id),
        line_no smallint NOT NULL,
        entry_date date NOT NULL,
        account_code text NOT NULL,
        debit numeric(20,2) NOT NULL DEFAULT 0 CHECK (debit >= 0),
        credit numeric(20,2) NOT NULL DEFAULT 0 CHECK (credit >= 0),
        currency char(3) NOT NULL,
        description text NOT NULL,
        share_class_id uuid REFERENCES share_classes(id),
        CHECK ((debit = 0) <> (credit = 0)),
        FOREIGN KEY (fund_id, account_code) REFERENCES chart_of_accounts(fund_id, code),
        UNIQUE (entry_id, line_no)
      )`);
    await q.query(
      `CREATE INDEX journal_lines_fund_account_date_idx ON journal_lines (fund_id, account_code, entry_date, id)`,
    );
    await q.query(`CREATE INDEX journal_lines_fund_date_idx ON journal_lines (fund_id, entry_date, id)`);

    // Posted entries are immutable: a correction is a reversing entry. Purging a synthetic fund
    // (seed:demo) sets fundgate.purge = 'on' for its own transaction.
    await q.query(`
      CREATE FUNCTION journal_is_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' AND current_setting('fundgate.purge', true) = 'on' THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION 'journal % are immutable; post a reversing entry instead', TG_TABLE_NAME;
      END $$`);
    await q.query(
      `CREATE TRIGGER journal_entries_immutable BEFORE UPDATE OR DELETE ON journal_entries FOR EACH ROW EXECUTE FUNCTION journal_is_immutable()`,
    );
    await q.query(
      `CREATE TRIGGER journal_lines_immutable BEFORE UPDATE OR DELETE ON journal_lines FOR EACH ROW EXECUTE FUNCTION journal_is_immutable()`,
    );

    // Line status as the read API shows it: 'reversed' when a later reversal cancels the entry.
    await q.query(`
      CREATE VIEW journal_lines_view AS
      SELECT l.id AS line_id, l.fund_id, l.entry_id, e.entry_number, l.entry_date, e.posted_at,
             l.account_code, a.name AS account_name, a.account_type, l.debit, l.credit, l.currency,
             l.description, e.source, e.source_ref, e.nav_run_id, sc.name AS share_class,
             CASE WHEN e.status = 'reversal' THEN 'reversal'
                  WHEN EXISTS (SELECT 1 FROM journal_entries r WHERE r.reverses_entry_id = e.id) THEN 'reversed'
                  ELSE 'posted' END AS status
        FROM journal_lines l
        JOIN journal_entries e ON e.id = l.entry_id
        JOIN chart_of_accounts a ON a.fund_id = l.fund_id AND a.code = l.account_code
        LEFT JOIN share_classes sc ON sc.id = l.share_class_id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP VIEW journal_lines_view');
    await q.query('DROP TABLE journal_lines');
    await q.query('DROP TABLE journal_entries');
    await q.query('DROP FUNCTION journal_is_immutable()');
    for (const t of [
      'nav_run_flows',
      'nav_run_assets',
      'nav_run_positions',
      'nav_run_lots',
      'nav_run_capital_accounts',
      'nav_run_classes',
      'nav_runs',
      'chart_of_accounts',
      'stress_preset_returns',
      'stress_presets',
      'lp_reports',
      'admin_navs',
      'expenses',
      'subscription_lots',
      'capital_activity',
      'transfers',
      'trades',
      'prices',
      'connections',
      'instruments',
      'investors',
      'share_classes',
    ]) {
      await q.query(`DROP TABLE ${t}`);
    }
    await q.query(`
      ALTER TABLE funds
        DROP COLUMN inception_date, DROP COLUMN aum_target, DROP COLUMN administrator,
        DROP COLUMN cash_connection_code, DROP COLUMN dealing_frequency, DROP COLUMN subscription_notice_days,
        DROP COLUMN redemption_notice_days, DROP COLUMN settlement_days, DROP COLUMN management_fee_basis,
        DROP COLUMN management_fee_accrual, DROP COLUMN day_count_convention, DROP COLUMN performance_fee_method,
        DROP COLUMN hurdle_type, DROP COLUMN hurdle_compounding, DROP COLUMN crystallization_events`);
  }
}
