// Releases @tasktracker/webhooks and @tasktracker/client (docs/sdk.md, "Releasing").
//
//   npm run release:packages                dry run: clean build, pack, check, print what would be published
//   npm run release:packages -- --publish   the same, then `npm publish` of each tarball not yet on the registry
//   --out DIR                               keep the tarballs in DIR
//
// Publishing is meant for CI: publishConfig.provenance makes npm attach a provenance statement,
// which it can only do inside a supported CI job (GitHub Actions with `id-token: write`).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
/** In dependency order: the client does not depend on the verifier, but the service does. */
const PACKAGES = ['webhooks', 'client'] as const;
type PackageName = (typeof PACKAGES)[number];

/**
 * Largest unpacked size accepted per package: a regression past it (sources, maps, a second copy
 * of the generated types) fails the release. The client's generated declarations grow by about
 * 8 kB per operation (each repeats its error responses), and the verifier's event declarations by
 * about 4 kB per event type, hence their headroom.
 */
export const UNPACKED_BUDGET_BYTES: Record<PackageName, number> = { webhooks: 200_000, client: 1_600_000 };

/** What a published package may contain: what runs, its declarations, and the documents npm shows. */
const ALLOWED_FILE =
  /^(package\.json|README\.md|LICENSE|CHANGELOG\.md|dist\/cjs\/package\.json|dist\/(esm|cjs)\/[\w/.-]+\.(js|d\.ts))$/;

const REQUIRED_FIELDS = ['name', 'version', 'description', 'license', 'repository', 'exports', 'files', 'engines'];

/** The API's major version: every path of the published document is under `/api/v<major>/`. */
export function apiMajor(): number {
  const document = JSON.parse(fs.readFileSync(path.join(root, 'docs/openapi.json'), 'utf8')) as {
    paths: Record<string, unknown>;
  };
  const majors = new Set(Object.keys(document.paths).map((p) => /^\/api\/v(\d+)\//.exec(p)?.[1]));
  const [major, ...others] = [...majors];
  if (major === undefined || others.length > 0)
    throw new Error(`docs/openapi.json paths are not all under one /api/v<major>/`);
  return Number(major);
}

/** Problems with a package's manifest and changelog (empty when it is ready to publish). */
export function manifestProblems(name: PackageName): string[] {
  const dir = path.join(root, 'packages', name);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const problems = REQUIRED_FIELDS.filter((field) => manifest[field] === undefined).map((f) => `missing "${f}"`);
  const version = /^(\d+)\.(\d+)\.(\d+)(-[\w.]+)?$/.exec(manifest.version ?? '');
  if (!version) problems.push(`version ${manifest.version} is not semver`);
  else if (Number(version[1]) !== apiMajor())
    problems.push(`major version ${version[1]} does not follow the API's (v${apiMajor()})`);
  if (manifest.repository?.directory !== `packages/${name}`)
    problems.push('repository.directory must name the package folder');
  if (manifest.publishConfig?.access !== 'public' || manifest.publishConfig?.provenance !== true)
    problems.push('publishConfig must be {"access": "public", "provenance": true}');
  const changelog = fs.readFileSync(path.join(dir, 'CHANGELOG.md'), 'utf8');
  if (!changelog.includes(`\n## ${manifest.version}\n`) && !changelog.includes(`\n## ${manifest.version} `))
    problems.push(`CHANGELOG.md has no "## ${manifest.version}" section`);
  return problems;
}

/**
 * Packs every package into `outDir` as npm would publish it and checks the result: only allowed
 * files, every `exports` target present, size within budget. Returns one record per package.
 */
export interface PackedPackage {
  /** Under packages/. */
  folder: PackageName;
  name: string;
  version: string;
  tarball: string;
  /** Bytes of the tarball, and of its files unpacked. */
  size: number;
  unpackedSize: number;
  files: string[];
  /** Why it may not be published; empty when it may. */
  problems: string[];
}

export function packPackages(outDir: string): PackedPackage[] {
  fs.mkdirSync(outDir, { recursive: true });
  return PACKAGES.map((name) => {
    const dir = path.join(root, 'packages', name);
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--pack-destination', outDir], { cwd: dir, encoding: 'utf8' }),
    ) as Array<{ filename: string; size: number; unpackedSize: number; files: Array<{ path: string }> }>;
    if (!packed) throw new Error(`npm pack of ${name} reported nothing`);
    const files = packed.files.map((f) => f.path).sort();
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const problems = [
      ...manifestProblems(name),
      ...files.filter((f) => !ALLOWED_FILE.test(f)).map((f) => `unexpected file ${f}`),
      ...exportTargets(manifest.exports)
        .filter((target) => !files.includes(target.replace(/^\.\//, '')))
        .map((target) => `exports target ${target} is not in the package`),
    ];
    if (!files.includes('LICENSE')) problems.push('LICENSE is not in the package');
    if (packed.unpackedSize > UNPACKED_BUDGET_BYTES[name])
      problems.push(`unpacked size ${packed.unpackedSize} B exceeds the budget of ${UNPACKED_BUDGET_BYTES[name]} B`);
    return {
      folder: name,
      name: manifest.name,
      version: manifest.version,
      tarball: path.join(outDir, packed.filename),
      size: packed.size,
      unpackedSize: packed.unpackedSize,
      files,
      problems,
    };
  });
}

function exportTargets(exports: unknown): string[] {
  if (typeof exports === 'string') return exports.endsWith('.json') ? [] : [exports];
  if (typeof exports !== 'object' || exports === null) return [];
  return Object.values(exports).flatMap((value) => exportTargets(value));
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

function alreadyPublished(name: string, version: string): boolean {
  try {
    return execFileSync('npm', ['view', `${name}@${version}`, 'version'], { encoding: 'utf8' }).trim() === version;
  } catch {
    return false;
  }
}

/** A clean build, exactly as CI makes it (scripts/build-packages.mjs). */
function cleanBuild(): void {
  execFileSync(process.execPath, [path.join(root, 'scripts/build-packages.mjs'), '--clean'], { stdio: 'inherit' });
}

function main(args: string[]): void {
  const publish = args.includes('--publish');
  const outIndex = args.indexOf('--out');
  const outDir =
    outIndex >= 0 && args[outIndex + 1]
      ? path.resolve(args[outIndex + 1]!)
      : fs.mkdtempSync(path.join(os.tmpdir(), 'tt-release-'));
  cleanBuild();
  const packed = packPackages(outDir);
  let failed = false;
  for (const p of packed) {
    console.log(
      `\n${p.name}@${p.version}  ${kB(p.size)} packed, ${kB(p.unpackedSize)} unpacked, ${p.files.length} files`,
    );
    console.log(`  ${p.tarball}`);
    for (const file of p.files) console.log(`    ${file}`);
    for (const problem of p.problems) console.log(`  PROBLEM: ${problem}`);
    failed ||= p.problems.length > 0;
  }
  if (failed) {
    console.error('\nNot ready to publish: fix the problems above.');
    process.exitCode = 1;
    return;
  }
  if (!publish) {
    console.log('\nDry run: nothing was published. `--publish` (from CI) publishes these tarballs.');
    return;
  }
  const repository = process.env.GITHUB_REPOSITORY;
  for (const p of packed) {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'packages', p.folder, 'package.json'), 'utf8'));
    const url = String(manifest.repository.url);
    // npm checks provenance against this URL: a mismatch fails after the upload has started.
    if (repository && !url.includes(`github.com/${repository}.git`))
      throw new Error(`${p.name}: repository.url ${url} is not this repository (${repository})`);
    if (alreadyPublished(p.name, p.version)) {
      console.log(`${p.name}@${p.version} is already published: skipped`);
      continue;
    }
    const tag = p.version.includes('-') ? 'next' : 'latest';
    execFileSync('npm', ['publish', p.tarball, '--tag', tag], { stdio: 'inherit' });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
