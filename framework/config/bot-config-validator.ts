import { readFileSync } from 'node:fs';
import { Ajv, type Options, type ValidateFunction } from 'ajv';

// strictTypes off: the schema's `string | number` amounts carry a string-only pattern on purpose.
// validateSchema off: checking the schema against its meta-schema costs ~20 ms at every start;
// the schema ships with the code and a test checks it once.
// allErrors: a user fixes every mistake of a file in one pass; verbose: the allowed keys for "did you mean".
const OPTIONS: Options = { useDefaults: true, allErrors: true, verbose: true, strict: true, strictTypes: false, validateSchema: false };

let validator: ValidateFunction | undefined;

/**
 * The validator of the bot config schema in `schemaFile`, compiled once per process: compiling
 * costs milliseconds, validating microseconds. The compiled command carries this module compiled
 * ahead instead (scripts/build.mjs: ajv's standalone code of the same schema and options), so it
 * starts without ajv's compiler.
 */
export function botConfigValidator(schemaFile: string): ValidateFunction {
  return (validator ??= compileBotConfigValidator(schemaFile).validate);
}

/**
 * Compiles the schema in `schemaFile`; `code` is ajv's code option, with which the build asks for
 * the validator's source as well.
 */
export function compileBotConfigValidator(schemaFile: string, code?: Options['code']): { readonly ajv: Ajv; readonly validate: ValidateFunction } {
  const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as object;
  const ajv = new Ajv(code === undefined ? OPTIONS : { ...OPTIONS, code });
  return { ajv, validate: ajv.compile(schema) };
}
