import { ApiProperty } from '@nestjs/swagger';
import { NestFactory, Reflector } from '@nestjs/core';
import { Controller, Get, Module } from '@nestjs/common';
import { forbiddenProperty, redact, RedactionError, WALLET_FORMAT } from './redact';
import { installRouteRedaction, redactAnswer, redactingHandler, redactionOf, Returns } from './redaction.interceptor';
import { RequiresScopes } from '../auth/auth.decorators';
import { ProblemError } from '../errors/problem';
import { markShared, sharedJson } from '../http/shared-json';

class HoldingDto {
  @ApiProperty() asset: string;
  @ApiProperty() marketValue: string;
  @ApiProperty({ format: WALLET_FORMAT }) wallet: string;
}
class InvestorDto {
  @ApiProperty() investorId: string;
  @ApiProperty() displayName: string;
  @ApiProperty({ type: HoldingDto, isArray: true }) holdings: HoldingDto[];
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) returns: Record<string, string>;
}
class LeakyDto {
  @ApiProperty() id: string;
  @ApiProperty() email: string;
}

describe('redaction', () => {
  const investor = {
    investorId: 'inv-1',
    displayName: 'Investor 1',
    legalName: 'Jane Q. Public',
    email: 'jane@example.com',
    taxId: '123-45-6789',
    holdings: [{ asset: 'BTC', marketValue: '10.00', wallet: '0x12ab34cd56ef7890aabbccddeeff00119f3c', secret: 's' }],
    returns: { BTC: '-0.5' },
  };

  it('copies only declared members, recursively, and shortens wallets', () => {
    expect(redact(investor, InvestorDto as never)).toEqual({
      investorId: 'inv-1',
      displayName: 'Investor 1',
      holdings: [{ asset: 'BTC', marketValue: '10.00', wallet: '0x12ab…9f3c' }],
      returns: { BTC: '-0.5' },
    });
  });

  it('refuses a schema that declares a PII member', () => {
    expect(() => redact({ id: '1', email: 'a@b.c' }, LeakyDto as never)).toThrow(RedactionError);
  });

  it('knows a PII or secret member in any spelling: SQL column names, kebab case, compounds', () => {
    const refused = ['legal_name', 'tax_id', 'postal_address', 'investorEmail', 'contact-email', 'billingAddress'];
    const more = ['bank_account', 'api_secret', 'signingSecret', 'API_KEY', 'address', 'phoneNumber', 'date_of_birth'];
    expect([...refused, ...more].filter((n) => !forbiddenProperty(n))).toEqual([]);
    const served = [
      'displayName',
      'investorId',
      'previousSecretExpiresAt',
      'classNavPerUnit',
      'addressedTo',
      'clientIp',
      'keyId',
      'tinted',
    ];
    expect(served.filter((n) => forbiddenProperty(n))).toEqual([]);
  });

  it('refuses a value that does not fit the schema (object where a string was declared)', () => {
    expect(() => redact({ ...investor, displayName: { legalName: 'x' } }, InvestorDto as never)).toThrow(
      RedactionError,
    );
    expect(() => redact({ ...investor, returns: { BTC: { nested: 1 } } }, InvestorDto as never)).toThrow(
      RedactionError,
    );
  });

  it('refuses at boot a route whose schema declares a PII member (not at its first request)', async () => {
    @Controller('leaky')
    @RequiresScopes('fund:read')
    class LeakyController {
      @Get() @Returns(LeakyDto) leak() {
        return { id: '1', email: 'a@b.c' };
      }
    }
    @Module({ controllers: [LeakyController] })
    class LeakyModule {}
    const context = await NestFactory.createApplicationContext(LeakyModule, { logger: false });
    expect(() => installRouteRedaction(context)).toThrow(/LeakyDto.email may carry PII or a secret/);
    await context.close();
  });

  describe('redacting handlers (fail-closed)', () => {
    @Controller('x')
    @RequiresScopes('fund:read')
    class FixtureController {
      @Get('declared') @Returns(InvestorDto) declared(n: number) {
        return { ...investor, n };
      }
      @Get('undeclared') undeclared() {
        return investor;
      }
      @Get('broken') @Returns(LeakyDto) broken() {
        return { id: '1', email: 'a@b.c' };
      }
      @Get('cached') @Returns(InvestorDto) cached() {
        return markShared(investor); // the same object on every call, as a cached answer is
      }
    }
    const wrap = (name: keyof FixtureController) => {
      const fn = FixtureController.prototype[name] as (...args: unknown[]) => unknown;
      return redactingHandler(fn, redactionOf(new Reflector(), fn, FixtureController));
    };
    const run = (name: keyof FixtureController) => wrap(name).call(new FixtureController(), 1);

    it('redacts a declared route', async () => {
      const out = (await run('declared')) as Record<string, unknown>;
      expect(JSON.stringify(out)).not.toMatch(/jane|123-45|Public/i);
      expect(out.displayName).toBe('Investor 1');
    });

    it('answers 500 without data for a route with no schema', async () => {
      await expect(run('undeclared')).rejects.toBeInstanceOf(ProblemError);
      await expect(run('undeclared')).rejects.toMatchObject({ status: 500, code: 'internal' });
    });

    it('answers 500 without data when redaction itself fails', async () => {
      await expect(run('broken')).rejects.toMatchObject({ status: 500, code: 'internal' });
    });

    it('redacts a cached answer once: the same object gives the same redacted object and the same JSON', async () => {
      const handler = wrap('cached');
      const controller = new FixtureController();
      const [a, b] = [await handler.call(controller), await handler.call(controller)];
      expect(b).toBe(a);
      expect(JSON.stringify(a)).not.toMatch(/jane|123-45/i);
      expect(sharedJson(b)).toBe(sharedJson(a));
      expect(sharedJson(a)).toBe(JSON.stringify(a));
      const fresh = (await wrap('declared').call(controller, 1)) as object;
      expect(await wrap('declared').call(controller, 1)).not.toBe(fresh); // a new answer is redacted anew
      const rule = redactionOf(new Reflector(), FixtureController.prototype.cached, FixtureController);
      const unshared = { ...investor }; // an answer no cache marked is redacted on every call, never memoized
      expect(redactAnswer(rule, unshared)).not.toBe(redactAnswer(rule, unshared));
      expect(sharedJson(unshared)).toBe(JSON.stringify(unshared));
    });

    it("keeps the handler's name, arity and route metadata (Nest, Swagger and the MCP catalog read them)", () => {
      const original = FixtureController.prototype.declared;
      const wrapped = wrap('declared');
      expect([wrapped.name, wrapped.length]).toEqual([original.name, original.length]);
      for (const key of Reflect.getOwnMetadataKeys(original))
        expect(Reflect.getOwnMetadata(key, wrapped)).toBe(Reflect.getOwnMetadata(key, original));
    });
  });
});
