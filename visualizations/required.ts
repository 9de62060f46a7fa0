/**
 * A lookup in a map the layout built itself from the same graph: a miss is a bug in the layout, not bad input, so it
 * throws with the key instead of letting `undefined` flow into coordinates.
 */
export function required<K, V>(map: ReadonlyMap<K, V>, key: K): V {
  const value = map.get(key)
  if (value === undefined) throw new Error(`diagram layout: no entry for ${String(key)}`)
  return value
}
