// `npm run build` inside one package: marks its CommonJS output directory (see build-packages.mjs).
import { writeCommonJsMarker } from './build-packages.mjs';

const dir = process.argv[2];
if (!dir) throw new Error('usage: build-cjs-marker.mjs <dir>');
writeCommonJsMarker(dir);
