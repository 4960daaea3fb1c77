// Regenerates docs/openapi.json from the route schemas (`npm run openapi`).
import fs from 'node:fs';
import { buildOpenApiDocument } from '../src/openapi-document.ts';

fs.writeFileSync(new URL('../docs/openapi.json', import.meta.url), await buildOpenApiDocument());
console.log('wrote docs/openapi.json');
