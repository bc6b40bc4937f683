import vard from '@andersmyrmel/vard';

/** The npm peer @andersmyrmel/vard as a flagger: true when `vard.safe` says unsafe (or throws on it). */
export function vardFlags(text: string): boolean {
  try {
    return !vard.safe(text).safe;
  } catch {
    return true;
  }
}
