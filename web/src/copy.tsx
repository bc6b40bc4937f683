import { useState } from 'react';

/** A copy-to-clipboard button that says when it worked (and when the browser refused). */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'refused'>('idle');
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => setState('copied'),
      () => setState('refused'),
    );
  return (
    <button type="button" onClick={() => void copy()}>
      {state === 'copied' ? 'Copied' : state === 'refused' ? 'Select and copy it by hand' : label}
    </button>
  );
}
