import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The layering (docs/architecture.md) as lint rules: SQL and paging only in repositories and src/db/, no
 * HTTP in services or repositories, and modules never reach into the worker that runs them.
 * Flat config does not merge one rule's options across blocks, so each kind of file gets one
 * block listing every restriction that applies to it.
 */
function layering() {
  const kysely = {
    paths: [{ name: 'kysely', message: 'Queries belong in a *.repository.ts (or src/db/).' }],
    patterns: [],
  };
  const fastify = {
    paths: [{ name: 'fastify', message: 'Services and repositories do not see HTTP; the route adapts.' }],
    patterns: [{ regex: '^@fastify/', message: 'Services and repositories do not see HTTP; the route adapts.' }],
  };
  const paging = {
    paths: [],
    patterns: [
      {
        regex: '(^|/)db/paginate(\\.ts)?$',
        message: 'A list is paged by its repository: export a page function there.',
      },
    ],
  };
  const worker = {
    paths: [],
    patterns: [{ regex: '^(\\.\\./)+worker/', message: 'The worker runs modules; modules do not import it.' }],
  };
  const rule = (...restrictions) => ({
    'no-restricted-imports': [
      'error',
      { paths: restrictions.flatMap((r) => r.paths), patterns: restrictions.flatMap((r) => r.patterns) },
    ],
  });
  const repositories = ['src/**/*.repository.ts'];
  return [
    { files: ['src/**/*.ts'], ignores: ['src/db/**', ...repositories], rules: rule(kysely, paging) },
    { files: ['src/modules/**/*.ts'], ignores: repositories, rules: rule(kysely, paging, worker) },
    { files: ['src/**/*.service.ts'], rules: rule(kysely, paging, fastify) },
    { files: ['src/modules/**/*.service.ts'], rules: rule(kysely, paging, fastify, worker) },
    { files: repositories, rules: rule(fastify) },
    { files: ['src/modules/**/*.repository.ts'], rules: rule(fastify, worker) },
  ];
}

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'data/',
      'coverage/',
      'web/dist/',
      'packages/*/dist/',
      'dist/',
      'packages/client/src/generated/',
      'packages/webhooks/src/generated/',
      'src/modules/query/parser.generated.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', Buffer: 'readonly', console: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  ...layering(),
  {
    files: ['web/src/**'],
    languageOptions: { globals: globals.browser },
  },
);
