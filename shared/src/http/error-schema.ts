import { Type, type TSchema } from '@sinclair/typebox';
import { errorStatus } from './errors';

// The error body as a schema, shared by every Warden API's OpenAPI document.

export const ErrorResponse = Type.Object(
  {
    error: Type.Object({
      code: Type.Union(Object.keys(errorStatus).map((c) => Type.Literal(c))),
      message: Type.String(),
      details: Type.Optional(
        Type.Object({
          field: Type.Optional(Type.String()),
          expected: Type.Optional(Type.String()),
          received: Type.Optional(Type.String()),
        }),
      ),
    }),
  },
  { $id: 'Error' },
);

/** The error answers a route lists, each described by the codes it carries. */
export const errorResponses = (codes: number[]) =>
  Object.fromEntries(codes.map((c) => [c, { ...ErrorResponse, description: describeStatus(c) }])) as Record<
    number,
    TSchema
  >;

function describeStatus(status: number): string {
  const codes = Object.entries(errorStatus)
    .filter(([, s]) => s === status)
    .map(([c]) => c);
  return codes.join(', ');
}
