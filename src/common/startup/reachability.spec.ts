import { redactUrl } from './reachability';

describe('redactUrl', () => {
  it('hides a password in the user part and in credential query parameters, and keeps the rest', () => {
    expect(redactUrl('postgres://app:s3cret@db:5432/fundgate')).toBe('postgres://app:***@db:5432/fundgate');
    expect(redactUrl('postgres://db/fundgate?user=app&password=s3cret&sslmode=require')).toBe(
      'postgres://db/fundgate?user=app&password=***&sslmode=require',
    );
    expect(redactUrl('redis://cache:6379/0?password=s3cret')).toBe('redis://cache:6379/0?password=***');
    expect(redactUrl('postgres://db/x?sslkey=/k.pem&sslpassword=p')).not.toMatch(/\/k\.pem|=p(&|$)/);
    expect(redactUrl('not a url')).toBe('(unparseable URL)');
  });
});
