/**
 * A bounded least-recently-used cache in front of `load`: each key is loaded once while it stays among the
 * `capacity` most recently used, and the least recently used entry is evicted beyond that. Not safe to share across
 * threads (there are none in a JavaScript isolate); `load` must not throw.
 */
export const makeBoundedCache = <K, V>(capacity: number, load: (key: K) => V) => {
  const entries = new Map<K, V>()
  return (key: K): V => {
    if (entries.has(key)) {
      const hit = entries.get(key) as V
      // Re-inserting moves the key to the young end of the Map's insertion order.
      entries.delete(key)
      entries.set(key, hit)
      return hit
    }
    const value = load(key)
    entries.set(key, value)
    if (entries.size > capacity) {
      const oldest = entries.keys().next()
      if (oldest.done !== true) entries.delete(oldest.value)
    }
    return value
  }
}
