import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import type { FastifyValidationResult } from 'fastify/types/schema.js';

type Validator = FastifyValidationResult;

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
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const validate = (httpPart === 'body' ? bodyAjv : textAjv).compile(boundIntegers(schema));
    return httpPart === 'params' ? canonicalIntegerParams(schema, validate) : validate;
  });
}

/** An integer in a path is written one way: decimal digits, no sign, leading zero, exponent or fraction. */
const CANONICAL_INTEGER = /^(0|-?[1-9][0-9]*)$/;

/**
 * Number coercion would read `0x5`, `0b101`, `5e0`, `+5`, `05` and `5.0` as 5, giving one
 * resource many URLs: path parameters typed integer must be spelled canonically, else 400.
 */
function canonicalIntegerParams(schema: unknown, validate: Validator): Validator {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  const integers = Object.keys(properties).filter((name) => properties[name]!.type === 'integer');
  if (integers.length === 0) return validate;
  const checked: Validator = (data) => {
    const params = data as Record<string, unknown>;
    const bad = integers.filter((name) => typeof params[name] === 'string' && !CANONICAL_INTEGER.test(params[name]));
    if (bad.length) {
      checked.errors = bad.map((name) => ({
        instancePath: `/${name}`,
        schemaPath: `#/properties/${name}/type`,
        keyword: 'type',
        params: { type: 'integer' },
        message: 'must be an integer written in plain decimal digits',
      }));
      return false;
    }
    const valid = validate(data);
    checked.errors = validate.errors;
    return valid;
  };
  return checked;
}

const INT32 = { minimum: -2147483648, maximum: 2147483647 };

/**
 * Every id and count column is a 32-bit integer, so an integer the schema leaves unbounded gets
 * the int32 range: 1e86 as a project id is a 400 naming the field, not a PostgreSQL overflow
 * (a 500). Applied to a copy used for validation only; the published schemas are unchanged.
 */
export function boundIntegers<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(boundIntegers) as T;
  if (!schema || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema))
    copy[key] =
      key === 'const' || key === 'enum' || key === 'examples' || key === 'default' ? value : boundIntegers(value);
  const type = copy.type;
  if (type === 'integer' || (Array.isArray(type) && type.includes('integer'))) {
    if (copy.minimum === undefined && copy.exclusiveMinimum === undefined) copy.minimum = INT32.minimum;
    if (copy.maximum === undefined && copy.exclusiveMaximum === undefined) copy.maximum = INT32.maximum;
  }
  return copy as T;
}
