// Rewrites the error table of docs/api/errors.md from the error catalog (`npm run docs:errors`).
import fs from 'node:fs';
import { ERRORS_PAGE, withErrorTable } from './docs/error-catalog-page.ts';

const file = new URL(`../${ERRORS_PAGE}`, import.meta.url);
fs.writeFileSync(file, withErrorTable(fs.readFileSync(file, 'utf8')));
console.log(`wrote ${ERRORS_PAGE}`);
