import { describe, expect, it } from 'vitest'
import { scalarText } from '../../src/security/scalar-text.js'

describe('scalarText', () => {
  it('passes strings through and prints numbers, booleans and bigints', () => {
    expect(scalarText('4611686018467895812')).toBe('4611686018467895812')
    expect(scalarText(42)).toBe('42')
    expect(scalarText(false)).toBe('false')
    expect(scalarText(10n ** 20n)).toBe('100000000000000000000')
  })

  it('turns nullish into the empty string, not "undefined" or "null"', () => {
    expect(scalarText(undefined)).toBe('')
    expect(scalarText(null)).toBe('')
  })

  it('prints an object as JSON, never as "[object Object]"', () => {
    expect(scalarText({ id: 7 })).toBe('{"id":7}')
    expect(scalarText(['a', 1])).toBe('["a",1]')
  })
})
