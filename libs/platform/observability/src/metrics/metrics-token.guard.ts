import { CanActivate, ExecutionContext, Injectable, Optional } from '@nestjs/common';
import { MetricsConfig, StaticToken } from '@genhub/config';

/**
 * `/metrics` behind `Authorization: Bearer <METRICS_TOKEN>` where the app
 * loads MetricsConfig and the token is set (the gateway: its /metrics shares
 * the public port; required there in production). Elsewhere, or unset, the
 * scrape is open: the workers' port is a private management port (decision 0127).
 * Compared in constant time, over digests, like the admin token.
 */
@Injectable()
export class MetricsTokenGuard implements CanActivate {
  private readonly token?: StaticToken;

  constructor(@Optional() config?: MetricsConfig) {
    this.token = config?.METRICS_TOKEN ? new StaticToken(config.METRICS_TOKEN) : undefined;
  }

  canActivate(context: ExecutionContext): boolean {
    const { headers } = context
      .switchToHttp()
      .getRequest<{ headers: Record<string, string | undefined> }>();
    this.token?.check(headers.authorization, 'Invalid metrics token');
    return true;
  }
}
