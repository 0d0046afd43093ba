import { type DataSource } from 'typeorm';
import { isWellFormedKey, hashKey, displayParts } from './key-format';

/**
 * (Re)creates the shared demo key: fund:read on the given (synthetic demo) fund only, plan free.
 * Called by `npm run seed:demo`. Plain SQL so the CLI needs no Nest container.
 */
export async function ensureDemoKey(db: DataSource, demoApiKey: string, fundId: string): Promise<string> {
  if (!isWellFormedKey(demoApiKey)) throw new Error('DEMO_API_KEY is not a well-formed svc_dk_ key');
  const fund = await db.query('SELECT is_synthetic FROM funds WHERE id = $1', [fundId]);
  if (fund.length === 0) throw new Error(`fund ${fundId} does not exist`);
  const { displayPrefix, lastFour } = displayParts(demoApiKey);
  return db.transaction(async (m) => {
    // The demo key's owner is a service identity of the demo fund (never a person, never a reviewer).
    const account = await m.query(
      `INSERT INTO accounts (name, kind, owner_fund_id) VALUES ('demo', 'service', $1)
       ON CONFLICT (name) DO UPDATE SET kind = 'service', owner_fund_id = EXCLUDED.owner_fund_id, user_id = NULL RETURNING id`,
      [fundId],
    );
    const rows = await m.query(
      `INSERT INTO api_keys (account_id, fund_id, name, key_hash, display_prefix, last_four, scopes, plan, is_demo)
       VALUES ($1, $2, 'Shared demo key', $3, $4, $5, ARRAY['fund:read'], 'free', true)
       ON CONFLICT (key_hash) DO UPDATE SET account_id = EXCLUDED.account_id, fund_id = EXCLUDED.fund_id,
         scopes = ARRAY['fund:read'], plan = 'free', is_demo = true, revoked_at = NULL, expires_at = NULL
       RETURNING id`,
      [account[0].id, fundId, hashKey(demoApiKey), displayPrefix, lastFour],
    );
    return rows[0].id as string;
  });
}
