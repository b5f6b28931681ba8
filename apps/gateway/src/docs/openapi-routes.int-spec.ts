import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { readOpenApiDocumentText } from '@genhub/contracts/server';
import { createGateway } from '../test/gateway-harness.util';

/**
 * Routes the gateway serves that are not part of the public interface: the
 * orchestrator's probes, Prometheus, the document and its reference page, and
 * the embedded-mode file server (and the queue dashboard below). Every other
 * route must be in openapi.json.
 */
const NOT_PUBLIC = [
  'GET /health',
  'GET /ready',
  'GET /metrics',
  'GET /openapi.json',
  'GET /docs',
  'GET /docs/init.js',
  'GET /docs/swagger-ui.css',
  'GET /docs/swagger-ui-bundle.js',
  'GET /docs/favicon-32x32.png',
  'GET /cdn/{}',
];

/** The read-only queue dashboard (bull-board, an operator UI behind the admin token) owns this prefix. */
const QUEUE_DASHBOARD = '/admin/queues';
const isQueueDashboard = (route: string): boolean =>
  route.split(' ')[1] === QUEUE_DASHBOARD || route.split(' ')[1].startsWith(`${QUEUE_DASHBOARD}/`);

/**
 * `METHOD /path` with every path parameter written `{}`, from either notation;
 * Fastify's trailing wildcard too (`/v1/models/*` serves `/v1/models/{model}`,
 * whose ids hold slashes).
 */
const operation = (method: string, path: string): string =>
  `${method.toUpperCase()} ${path.replace(/\{[^}]+\}|:[^/]+|\*$/g, '{}')}`;

/**
 * Whether a served route answers a documented operation: equal, or the route
 * has a parameter where the operation has a fixed segment (the per-model
 * submit paths such as `/v1/local/simulator/test` are served by the slug route).
 */
function answers(route: string, documented: string): boolean {
  const [routeMethod, routePath] = route.split(' ');
  const [method, path] = documented.split(' ');
  const a = routePath.split('/');
  const b = path.split('/');
  return (
    routeMethod === method &&
    a.length === b.length &&
    a.every((segment, i) => segment === b[i] || (segment === '{}' && b[i] !== ''))
  );
}

function documentedOperations(): string[] {
  const document = JSON.parse(readOpenApiDocumentText()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => operation(method, path)),
  );
}

/**
 * openapi.json's paths are declared by hand (decision 0071); this proves they
 * are exactly the routes the gateway registers, read off Fastify as the real
 * application (AppModule, main.ts set-up, not listening) adds them.
 */
describe('the OpenAPI document and the gateway routes', () => {
  let app: NestFastifyApplication;
  const served = new Set<string>();

  beforeAll(async () => {
    app = await createGateway(
      {},
      {
        testRoutes: false,
        beforeInit: (created) => {
          created
            .getHttpAdapter()
            .getInstance()
            .addHook('onRoute', (route) => {
              for (const method of [route.method].flat())
                // Fastify adds a HEAD route beside every GET by itself.
                if (method !== 'HEAD') served.add(operation(method, route.url));
            });
        },
      },
    );
  }, 60_000);
  afterAll(() => app?.close());

  it('sees the routes being registered (the hook is in place)', () => {
    expect(served).toContain('GET /v1/requests/{}');
    expect(served).toContain('POST /admin/v1/accounts');
  });

  it('documents every public route the gateway serves', () => {
    const documented = new Set(documentedOperations());
    const missing = [...served].filter(
      (route) => !documented.has(route) && !NOT_PUBLIC.includes(route) && !isQueueDashboard(route),
    );
    expect(missing).toEqual([]);
  });

  it('serves every documented operation', () => {
    const absent = documentedOperations().filter(
      (documented) => ![...served].some((route) => answers(route, documented)),
    );
    expect(absent).toEqual([]);
  });

  it('serves the per-model submit paths through the slug route, and only those', () => {
    const throughTemplate = documentedOperations().filter((documented) => !served.has(documented));
    expect(throughTemplate).toContain('POST /v1/local/simulator/test');
    for (const documented of throughTemplate)
      expect([documented, answers('POST /v1/{}/{}/{}', documented)]).toEqual([documented, true]);
  });

  it('keeps its list of non-public routes true', () => {
    expect(NOT_PUBLIC.filter((route) => !served.has(route))).toEqual([]);
  });
});
