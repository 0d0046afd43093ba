import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';

/**
 * A graceful stop drains HTTP before anything else closes. Nest's close (and its SIGTERM handler)
 * runs the modules' destroy hooks, then the before-shutdown hooks (the activity log's last flush),
 * and only then closes the HTTP server: requests still in flight then ran against closed pools and
 * recorded their activity rows after the last flush, so those rows were lost. Provided by the root
 * module, whose destroy hooks Nest calls first: the server stops accepting and waits for the
 * requests in flight (idle keep-alive connections are closed), then the rest shuts down. Nest's
 * own close of the server afterwards finds it closed. A worker has no HTTP server.
 */
@Injectable()
export class HttpDrain implements OnModuleDestroy {
  constructor(private readonly host: HttpAdapterHost) {}

  async onModuleDestroy(): Promise<void> {
    await this.host.httpAdapter?.close();
  }
}
