import { Logger } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type Redis from 'ioredis';
import type { AppConfig } from '../config/config';
import type { Mailer } from '../mail/mailer';
import type { ConnectedApps } from '../oauth/connected-apps';
import { PasswordResetService, SHUTDOWN_WAIT_MS } from './password-reset.service';
import type { PasswordResetsRepository } from './password-resets.repository';
import type { SessionAuth } from './session-auth';
import type { SessionsRepository } from './sessions.repository';
import type { UsersRepository } from './users.repository';

const EMAIL = 'ada@example.com';

/**
 * Shutdown with a mail server that never answers: the service waits SHUTDOWN_WAIT_MS for the mails
 * in flight, not for ever, and logs how many it abandoned (a count: no address, no link).
 */
describe('PasswordResetService at shutdown', () => {
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  function serviceWithSilentMailServer() {
    const sent: string[] = [];
    const resets = {
      lockActivePerson: async () => ({ id: 'user-1', email: EMAIL }),
      issue: async () => ({ expires_at: new Date() }),
    };
    const mailer = {
      configured: true,
      send: (mail: { text: string }) => {
        sent.push(mail.text);
        return new Promise<void>(() => undefined); // connected, and never a reply
      },
    };
    const counter = {
      incr: () => counter,
      expire: () => counter,
      ttl: () => counter,
      exec: async () => [
        [null, 1],
        [null, 1],
        [null, 900],
      ],
    };
    const service = new PasswordResetService(
      { with: () => resets } as unknown as PasswordResetsRepository,
      { transaction: (work: (m: unknown) => unknown) => work({}) } as unknown as UsersRepository,
      {} as SessionsRepository,
      {} as ConnectedApps,
      { assertSameOrigin: () => undefined } as unknown as SessionAuth,
      mailer as unknown as Mailer,
      { multi: () => counter } as unknown as Redis,
      { publicBaseUrl: 'https://fund.example' } as AppConfig,
    );
    return { service, sent };
  }

  it(`gives up on unsent mails after ${SHUTDOWN_WAIT_MS} ms and logs how many, without addresses or links`, async () => {
    jest.useFakeTimers();
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const { service, sent } = serviceWithSilentMailServer();
    const req = { ip: '203.0.113.7' } as FastifyRequest;
    await service.request(req, EMAIL);
    await service.request(req, EMAIL);
    await jest.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(2);

    let stopped = false;
    const stopping = service.onModuleDestroy().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(SHUTDOWN_WAIT_MS - 1);
    expect(stopped).toBe(false); // the mails in flight get their time
    await jest.advanceTimersByTimeAsync(1);
    await stopping;
    expect(stopped).toBe(true);

    expect(warn).toHaveBeenCalledTimes(1);
    const line = String(warn.mock.calls[0][0]);
    expect(JSON.parse(line)).toEqual({
      msg: 'password reset mails abandoned at shutdown',
      abandoned: 2,
      waitedMs: SHUTDOWN_WAIT_MS,
    });
    expect(line).not.toContain(EMAIL);
    expect(line).not.toContain('reset-password');
  }, 15_000); // real time: waiting on the silent server for ever would end here

  it('stops at once, and logs nothing, when every mail was sent', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const { service } = serviceWithSilentMailServer();
    const started = Date.now();
    await service.onModuleDestroy();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(warn).not.toHaveBeenCalled();
  });
});
