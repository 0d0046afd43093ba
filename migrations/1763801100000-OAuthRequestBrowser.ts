import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `oauth_authorizations.browser_hash`: the SHA-256 of the cookie token of the browser that started
 * the authorization request. The consent page answers only in that browser: a consent link that
 * leaks (history, a shared screen) cannot be answered by another person in another browser, which
 * would connect the app that started it to their account. Requests from before this migration have
 * none and are refused (they live ten minutes).
 */
export class OAuthRequestBrowser1763801100000 implements MigrationInterface {
  name = 'OAuthRequestBrowser1763801100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE oauth_authorizations ADD COLUMN browser_hash bytea`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE oauth_authorizations DROP COLUMN browser_hash`);
  }
}
