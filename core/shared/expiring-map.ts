/**
 * A small map whose entries expire after a fixed number of seconds of the caller's clock, with a
 * size bound (oldest entries go first). Reads are synchronous, for hot paths that must not pay for
 * an effectful cache on every hit.
 */
export class ExpiringMap<K, V> {
  private readonly entries = new Map<K, { readonly value: V; readonly expiresAt: number }>()

  constructor(private readonly ttlSeconds: number, private readonly capacity: number) {}

  get(key: K, nowSeconds: number): V | undefined {
    const entry = this.entries.get(key)
    if (entry === undefined) return undefined
    if (entry.expiresAt <= nowSeconds) {
      this.entries.delete(key)
      return undefined
    }
    return entry.value
  }

  set(key: K, value: V, nowSeconds: number): void {
    this.entries.delete(key)
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next()
      if (oldest.done !== true) this.entries.delete(oldest.value)
    }
    this.entries.set(key, { value, expiresAt: nowSeconds + this.ttlSeconds })
  }

  clear(): void {
    this.entries.clear()
  }
}
