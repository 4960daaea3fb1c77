import manifest from '../package.json' with { type: 'json' };

/**
 * The service's version: package.json's, numbered as CHANGELOG.md's releases are (a test keeps
 * them equal; docs/operating/upgrades.md says how versions are numbered). Bundled into
 * dist/server at build time, so a process reports the code it runs.
 */
export const SERVICE_VERSION: string = manifest.version;
