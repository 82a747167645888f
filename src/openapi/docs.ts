/**
 * The /docs page: Swagger UI over /openapi.json. Its scripts come from `assetsUrl`: the Node
 * server serves swagger-ui-dist itself (so the page works with no internet access); the edge
 * runtimes, where a 1.7 MB asset does not belong in the bundle, point at a public copy.
 */

export const SWAGGER_UI_VERSION = '5.35.0';
export const PUBLIC_SWAGGER_UI_ASSETS = `https://cdn.jsdelivr.net/npm/swagger-ui-dist@${SWAGGER_UI_VERSION}`;

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function docsPage(specUrl: string, assetsUrl: string): string {
  const assets = escapeAttribute(assetsUrl.replace(/\/$/, ''));
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>kafka-groups-rest API</title>
  <link rel="stylesheet" href="${assets}/swagger-ui.css">
</head>
<body>
  <div id="docs"></div>
  <script src="${assets}/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: ${JSON.stringify(specUrl)}, dom_id: '#docs', deepLinking: true });
  </script>
</body>
</html>`;
}
