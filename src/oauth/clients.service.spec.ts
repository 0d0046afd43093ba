import type { AppConfig } from '../config/config';
import { ClientsService, isMetadataDocumentId, redirectUriMatches, redirectUriProblem } from './clients.service';
import type { OAuthRepository } from './oauth.repository';

describe('OAuth client registration rules', () => {
  const repo = { client: async () => null, insertClient: async () => undefined } as unknown as OAuthRepository;
  const guarded = new ClientsService(repo, { oauthClientMetadataAllowPrivate: false } as AppConfig);

  it('never fetches a client metadata document from a private, loopback or link-local address (the webhook target guard)', async () => {
    for (const url of [
      'https://127.0.0.1/client.json',
      'https://10.0.0.8/c.json',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/c.json',
      'https://localhost/c.json',
    ]) {
      await expect(guarded.resolve(url)).rejects.toThrow(/invalid_client: .*(private|loopback|link-local)/);
    }
  });

  it('takes only https URLs with a path as metadata document ids (http only when private targets are allowed)', () => {
    expect(isMetadataDocumentId('https://app.example/oauth/client.json', false)).toBe(true);
    expect(isMetadataDocumentId('https://app.example/', false)).toBe(false);
    expect(isMetadataDocumentId('http://app.example/c.json', false)).toBe(false);
    expect(isMetadataDocumentId('http://127.0.0.1:9/c.json', true)).toBe(true);
    expect(isMetadataDocumentId('fgc_abc', false)).toBe(false);
  });

  it('accepts https, loopback http and reverse-domain private schemes as redirect URIs, nothing else', () => {
    expect(redirectUriProblem('https://app.example/cb')).toBeNull();
    expect(redirectUriProblem('http://127.0.0.1:33418/callback')).toBeNull();
    expect(redirectUriProblem('com.example.app:/callback')).toBeNull();
    expect(redirectUriProblem('http://app.example/cb')).toMatch(/loopback/);
    expect(redirectUriProblem('javascript:alert(1)')).toMatch(/not allowed/);
    expect(redirectUriProblem('https://app.example/cb#x')).toMatch(/fragment/);
    expect(redirectUriProblem('myapp:/cb')).toMatch(/reverse domain/);
  });

  it('matches a loopback IP redirect URI at any port, everything else exactly (RFC 8252 §7.3)', () => {
    for (const [registered, asked] of [
      ['http://127.0.0.1/callback', 'http://127.0.0.1:49152/callback'],
      ['http://127.0.0.1:33418/callback', 'http://127.0.0.1:8080/callback'],
      ['http://[::1]:1/cb?app=x', 'http://[::1]:65535/cb?app=x'],
      ['http://127.0.0.1:5/', 'http://127.0.0.1/'],
      ['https://app.example/cb', 'https://app.example/cb'],
      ['http://localhost:6274/oauth/callback', 'http://localhost:6274/oauth/callback'],
    ])
      expect([registered, asked, redirectUriMatches(registered, asked)]).toEqual([registered, asked, true]);
    for (const [registered, asked] of [
      ['http://127.0.0.1:9/callback', 'http://127.0.0.1:9/callback/'],
      ['http://127.0.0.1:9/callback', 'http://127.0.0.1:9/Callback'],
      ['http://127.0.0.1:9/cb', 'http://127.0.0.1:9/cb?x=1'],
      ['http://127.0.0.1:9/cb', 'http://[::1]:9/cb'],
      ['http://127.0.0.1:9/cb', 'http://127.0.0.1:0/cb'],
      ['http://127.0.0.1:9/cb', 'http://127.0.0.1:65536/cb'],
      ['http://127.0.0.1:9/cb', 'http://127.0.0.1.evil.example:9/cb'],
      ['http://127.0.0.1:9/cb', 'http://127.0.0.1:9@evil.example/cb'],
      ['http://localhost:6274/oauth/callback', 'http://localhost:6275/oauth/callback'], // localhost: exact only
      ['https://app.example:443/cb', 'https://app.example:8443/cb'],
    ])
      expect([registered, asked, redirectUriMatches(registered, asked)]).toEqual([registered, asked, false]);
  });
});
