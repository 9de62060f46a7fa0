/**
 * What every binding accepts as a configuration: an object whose `providers`, when given, is an array. `providers`
 * is optional, as in Auth.js, where it defaults to `[]` (a config of nothing but `adapter` and `callbacks` is valid).
 */
export function hasConfigShape(value: unknown): value is object {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  return !('providers' in value) || value.providers === undefined || Array.isArray(value.providers)
}
