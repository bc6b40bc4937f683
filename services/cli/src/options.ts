/** Commander argument parsers shared by the commands. */
export const positiveInt = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`expected a positive integer, got "${v}"`);
  return n;
};
