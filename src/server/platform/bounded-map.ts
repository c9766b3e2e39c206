/**
 * The server's in-memory stores are bounded maps: the verified init data and the customers
 * recorded (platform/identity/authenticator.ts), the status answers (orders/status/status-answers.ts).
 */

/** Adds to a bounded map, letting the least recently added entry go when it is full. */
export function remember<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  if (map.size >= max) {
    const oldest = map.keys().next();
    if (oldest.done !== true) map.delete(oldest.value);
  }
  map.set(key, value);
}
