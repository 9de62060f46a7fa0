/**
 * The text of a value that arrived untyped (a provider's token response, a form field, a database column) before it
 * is escaped into HTML or a URL. Strings pass through; numbers, booleans and bigints are printed; nullish is empty;
 * anything else is JSON, so an object never turns into the silent "[object Object]".
 */
export function scalarText(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value
    case 'number':
    case 'boolean':
    case 'bigint':
      return value.toString()
    case 'undefined':
      return ''
    case 'symbol':
      return value.description ?? ''
    case 'function':
      return ''
    case 'object':
      return value === null ? '' : (JSON.stringify(value) ?? '')
  }
}
