/**
 * The field where someone chooses a password (sign-up, an invitation, a change): the API's minimum
 * of 12 characters checked by the browser first, and the browser's password manager told it is new.
 */
export function NewPasswordField({
  label = 'Password',
  value,
  onChange,
  hintId,
}: {
  label?: string;
  value: string;
  onChange: (value: string) => void;
  /** The id of the hint below the field, when there is one. */
  hintId?: string;
}) {
  return (
    <label>
      {label}
      <input
        type="password"
        autoComplete="new-password"
        required
        minLength={12}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        {...(hintId ? { 'aria-describedby': hintId } : {})}
      />
    </label>
  );
}
