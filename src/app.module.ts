import { DynamicModule, Global, Module, Type } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CalculatorsModule } from './calculators/calculators.module';
import { AuthGuard } from './common/auth/auth.guard';
import { ProblemFilter } from './common/errors/problem.filter';
import { HttpDrain } from './common/http/http-drain';
import { developmentKeyRing, SecretSealer } from './common/crypto/sealer';
import { CursorCodec } from './common/pagination/cursor';
import { APP_CONFIG, AppConfig } from './config/config';
import { dataSourceOptions } from './database/data-source';
import { FundDataModule } from './fund-data/fund-data.module';
import { FundModule } from './fund/fund.module';
import { HealthController } from './health/health.controller';
import { HealthRepository } from './health/health.repository';
import { IdentityModule } from './identity/identity.module';
import { KeysModule } from './keys/keys.module';
import { ProposalsModule } from './proposals/proposals.module';
import { McpModule } from './mcp/mcp.module';
import { OAuthModule } from './oauth/oauth.module';
import { RedisModule } from './redis/redis.module';
import { RetentionModule } from './retention/retention.module';
import { RateLimitGuard } from './usage/rate-limit/rate-limit.guard';
import { UsageModule } from './usage/usage.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/** Feature modules: each capability registers itself here (one line each). */
const FEATURE_MODULES: Type<unknown>[] = [
  CalculatorsModule,
  FundModule,
  FundDataModule,
  WebhooksModule,
  ProposalsModule,
  RetentionModule,
];

@Global()
@Module({})
class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        // One signer for every opaque cursor (trades, proposals, deliveries, activity).
        { provide: CursorCodec, useValue: new CursorCodec(config.cursorSecret) },
        // One sealer for every secret stored at rest (webhook signing secrets, TOTP secrets).
        { provide: SecretSealer, useValue: new SecretSealer(config.secretsKeyRing ?? developmentKeyRing()) },
      ],
      exports: [APP_CONFIG, CursorCodec, SecretSealer],
    };
  }
}

@Module({})
export class AppModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        TypeOrmModule.forRoot({
          ...dataSourceOptions(config.databaseUrl, undefined, {
            statementTimeoutMs: config.dbStatementTimeoutMs,
            lockTimeoutMs: config.dbLockTimeoutMs,
          }),
          migrations: [],
        }),
        RedisModule,
        KeysModule,
        IdentityModule,
        OAuthModule,
        UsageModule,
        ...FEATURE_MODULES,
        McpModule, // last: its tools are derived from every other module's routes
      ],
      controllers: [HealthController],
      providers: [
        HttpDrain, // first destroy hook of all: requests in flight finish before any pool closes
        HealthRepository,
        // Order matters: authenticate (and check scopes), then count against the rate limit.
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_FILTER, useClass: ProblemFilter },
      ],
    };
  }
}
