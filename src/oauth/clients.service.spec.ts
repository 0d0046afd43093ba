import type { AppConfig } from '../config/config';
import { ClientsService, isMetadataDocumentId, redirectUriProblem } from './clients.service';
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
});
