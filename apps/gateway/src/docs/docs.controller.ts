import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { readOpenApiDocumentText } from '@genhub/contracts/server';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>genhub API reference</title>
  <link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
  <noscript>This page renders <a href="/openapi.json">/openapi.json</a>; enable JavaScript or read the document directly.</noscript>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
});
`;

/** The Swagger UI files (swagger-ui-dist ships with @nestjs/swagger; no CDN is needed). */
function assetsDirectory(): string {
  // swagger-ui-dist is a dependency of @nestjs/swagger: resolve it from there.
  const fromSwagger = createRequire(require.resolve('@nestjs/swagger/package.json'));
  return path.dirname(fromSwagger.resolve('swagger-ui-dist/package.json'));
}

/**
 * The public contract for humans and tools: the checked-in OpenAPI document
 * and a rendered reference page. No authentication, nothing from the network.
 */
@ApiExcludeController()
@Controller()
export class DocsController {
  private readonly assets = new Map<string, Buffer>();

  @Get('openapi.json')
  @Header('Content-Type', 'application/json; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=300')
  document(): string {
    return readOpenApiDocumentText();
  }

  @Get('docs')
  @Header('Content-Type', 'text/html; charset=utf-8')
  page(): string {
    return PAGE;
  }

  @Get('docs/init.js')
  @Header('Content-Type', 'text/javascript; charset=utf-8')
  init(): string {
    return INIT;
  }

  @Get('docs/swagger-ui.css')
  @Header('Content-Type', 'text/css; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=86400')
  css(): Buffer {
    return this.asset('swagger-ui.css');
  }

  @Get('docs/swagger-ui-bundle.js')
  @Header('Content-Type', 'text/javascript; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=86400')
  bundle(): Buffer {
    return this.asset('swagger-ui-bundle.js');
  }

  @Get('docs/favicon-32x32.png')
  @Header('Content-Type', 'image/png')
  @Header('Cache-Control', 'public, max-age=86400')
  favicon(): Buffer {
    return this.asset('favicon-32x32.png');
  }

  private asset(name: string): Buffer {
    let content = this.assets.get(name);
    if (!content) {
      content = readFileSync(path.join(assetsDirectory(), name));
      this.assets.set(name, content);
    }
    return content;
  }
}
