// Request validators compiled at a route's first request instead of at start. Fastify compiles
// every route's params, query and body schema when the app is built: ~0.9 s of CPU for the 263
// operations, paid by every start of the server and of each API test's app, most of whose routes
// are never called. The validators are Fastify's own (its Ajv compiler and our Ajv options); only
// the moment of compiling moves. tests/api/openapi-validators.test.ts compiles them all eagerly,
// so a schema Ajv cannot compile still fails the suite, not a user's first request.
import { AjvCompiler } from '@fastify/ajv-compiler';
import addFormats from 'ajv-formats';

/**
 * Unknown properties are rejected (schemas say additionalProperties: false), never dropped; query
 * strings are coerced from text to the documented types. Verbose errors carry the failing schema,
 * whose `title` names the form field in "… is required." (problem.ts).
 */
export const AJV_OPTIONS = {
  customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: false, strict: false, verbose: true },
  plugins: [addFormats as never],
} as const;

type Validate = ((data: unknown, cxt?: unknown) => unknown) & { errors?: unknown; schemaEnv?: unknown };
type BuildCompiler = (externalSchemas: unknown, options: unknown) => (route: unknown) => Validate;

/** Fastify's `schemaController.compilersFactory.buildValidator`, compiling each validator when first used. */
export function lazyValidators(): BuildCompiler {
  const pool = AjvCompiler() as unknown as BuildCompiler;
  return (externalSchemas, options) => {
    const compile = pool(externalSchemas, options);
    return (route) => {
      let real: Validate | undefined;
      const lazy: Validate = (data, cxt) => {
        real ??= compile(route);
        const valid = real(data, cxt);
        lazy.errors = real.errors;
        return valid;
      };
      // Fastify hands the parent object (which lets Ajv coerce a root value) only to functions that
      // carry a schemaEnv, as Ajv's do.
      lazy.schemaEnv = true;
      return lazy;
    };
  };
}
