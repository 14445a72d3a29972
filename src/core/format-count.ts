/**
 * A whole number with thousands separators, as `toLocaleString('en-US')` writes it. Not Intl: its first call loads
 * ICU's locale data, 25 ms of a 0.7 s `validate` that reaches one over-long SKILL.md.
 */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
