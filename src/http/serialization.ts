import fastJsonStringify, { type Options } from 'fast-json-stringify';

type Serializer = (data: unknown) => string;

/** Error bodies are built by the error handler in exactly the published shape (`errorBody`). */
const serializeError: Serializer = (data) => JSON.stringify(data);

/**
 * Response serializers for Fastify's schema controller. Compiling one per route and status was
 * most of the start-up time (108 operations, each with up to eight error statuses): error
 * statuses share one serializer, and identical success schemas are compiled once.
 */
export function buildSerializerFactory(externalSchemas?: unknown, serializerOpts?: Options) {
  const options: Options = { ...serializerOpts, schema: externalSchemas as Options['schema'] };
  const compiled = new Map<string, Serializer>();
  return ({ schema, httpStatus }: { schema?: unknown; httpStatus: string }): Serializer => {
    if (/^[45]/.test(httpStatus) || httpStatus === 'default') return serializeError;
    const key = JSON.stringify(schema);
    let serializer = compiled.get(key);
    if (!serializer) {
      serializer = fastJsonStringify(schema as Parameters<typeof fastJsonStringify>[0], options) as Serializer;
      compiled.set(key, serializer);
    }
    return serializer;
  };
}
