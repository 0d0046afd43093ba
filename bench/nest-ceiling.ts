import 'reflect-metadata';
import {
  type CallHandler,
  type CanActivate,
  Controller,
  type ExecutionContext,
  Get,
  Injectable,
  Module,
  type NestInterceptor,
} from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR, NestFactory } from '@nestjs/core';
import { map, type Observable } from 'rxjs';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';

/**
 * The framework's own ceiling (issue 17 item 1): Nest on Fastify with one trivial guard (a
 * bearer header must be present) answering the same JSON as GET /api/v1/me, measured in the same
 * run as fundgate and bare Fastify.
 */
const body = JSON.parse(process.env.BARE_BODY ?? '{"ok":true}') as unknown;

@Injectable()
class TrivialGuard implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    const req = ctx.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>();
    return req.headers.authorization?.startsWith('Bearer ') ?? false;
  }
}

/** With NEST_INTERCEPTOR=1: one pass-through global interceptor (what a global redaction interceptor costs by itself). */
@Injectable()
class PassThrough implements NestInterceptor {
  intercept(_ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((b: unknown) => b));
  }
}

@Controller()
class MeController {
  @Get('nest')
  me(): unknown {
    return body;
  }
}

@Module({
  controllers: [MeController],
  providers: [
    { provide: APP_GUARD, useClass: TrivialGuard },
    ...(process.env.NEST_INTERCEPTOR === '1' ? [{ provide: APP_INTERCEPTOR, useClass: PassThrough }] : []),
  ],
})
class CeilingModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create<NestFastifyApplication>(CeilingModule, new FastifyAdapter({ logger: false }), {
    logger: false,
  });
  await app.listen({ port: Number(process.env.PORT ?? 3903), host: '127.0.0.1' });
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

void main();
