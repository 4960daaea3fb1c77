// Renders the manual into dist/docs-site, which the service serves at /docs/ (`npm run build:docs`;
// `npm install` and `npm start` run it).
import { DOCS_SITE_DIST } from '../src/http/docs-site.ts';
import { buildSite } from './docs/site.ts';

const { pages, assets } = buildSite(DOCS_SITE_DIST);
console.log(`docs site: ${pages.size} pages and ${assets.length} files in ${DOCS_SITE_DIST}`);
