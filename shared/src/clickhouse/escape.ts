/**
 * The one literal-escaping function, for servers without query parameters (18.16). Everything a
 * user can influence reaches SQL either as a query parameter or through this function.
 */
export function sqlString(value: string): string {
  if (value.includes('\0')) throw new Error('NUL is not allowed in a ClickHouse string literal');
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** Identifiers (database, table) are never user input, but are still checked. */
export function sqlIdentifier(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`invalid identifier: ${name}`);
  return name;
}
