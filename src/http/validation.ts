import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

// ajv-formats is CommonJS with a default export; NodeNext sees the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * Bodies are validated strictly: no type coercion ("5" is not an integer) and unknown fields
 * are refused, so a typo such as `asignee` is a 400 rather than a silent no-op. Query strings
 * and path parameters arrive as text, so they are coerced; unknown query parameters are ignored.
 */
export function registerValidators(app: FastifyInstance): void {
  const common = { allErrors: true, useDefaults: true, strict: false, removeAdditional: false } as const;
  const bodyAjv = addFormats(new Ajv({ ...common, coerceTypes: false }));
  const textAjv = addFormats(new Ajv({ ...common, coerceTypes: 'array' }));
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : textAjv).compile(schema));
}
