import { FormatRegistry } from '@sinclair/typebox';

/**
 * String formats the schemas use, for TypeBox's compiler (it knows none of its own). Registered on
 * import by the schemas that need them, so a checker compiled from those schemas always has them.
 */

const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;

/** An RFC 3339 date-time that names a real instant (what `Date#toISOString` writes). */
export function isDateTime(value: string): boolean {
  return rfc3339.test(value) && !Number.isNaN(Date.parse(value));
}

if (!FormatRegistry.Has('date-time')) FormatRegistry.Set('date-time', isDateTime);
