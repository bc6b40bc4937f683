import type { FastifySchemaCompiler } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { validationError } from './errors';

/** One compiled check per schema object, so every user of a schema runs the very same code. */
const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

export function compiledCheck<T extends TSchema>(schema: T): TypeCheck<T> {
  let check = compiled.get(schema);
  if (!check) {
    check = TypeCompiler.Compile(schema);
    compiled.set(schema, check);
  }
  return check as TypeCheck<T>;
}

/** Fastify's validator for one schema: a pass answers `true` (nothing to replace, nothing allocated). */
function validatorOf(schema: TSchema) {
  const check = compiledCheck(schema);
  return (data: unknown) => check.Check(data) || { error: validationError(check.Errors(data)) };
}

/**
 * The app's validator compiler: TypeBox is the single source of validation, and its first error
 * becomes the contract's error body.
 */
export const typeBoxValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema }) => validatorOf(schema);

/**
 * The validator compiler of a route whose body validator checks less than its documented body schema
 * (the batch, whose records are checked one by one): `body` for the body, every other part as usual.
 */
export function validatingBodyWith(body: TSchema) {
  return ({ schema, httpPart }: { schema: unknown; httpPart?: string }) =>
    validatorOf(httpPart === 'body' ? body : (schema as TSchema));
}
