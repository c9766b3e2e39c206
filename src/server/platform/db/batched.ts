/**
 * Lookups by key gathered into one query: every key asked for in the same turn of
 * the event loop is read together, once that turn's callbacks have run. Under load one query
 * answers the requests parsed in one go, and a key asked for twice is read once; alone, a
 * lookup waits for nothing but the end of its turn. Each lookup is issued after it was asked
 * for, so it sees every write committed before.
 */
export function batchedLookup<K, V>(
  read: (keys: readonly K[]) => Promise<ReadonlyMap<K, V>>,
): (key: K) => Promise<V | undefined> {
  let waiting = new Map<
    K,
    { resolve: (value: V | undefined) => void; reject: (error: unknown) => void }[]
  >();
  const readWaiting = async (): Promise<void> => {
    const batch = waiting;
    waiting = new Map();
    try {
      const found = await read([...batch.keys()]);
      for (const [key, askers] of batch) for (const asker of askers) asker.resolve(found.get(key));
    } catch (error) {
      for (const askers of batch.values()) for (const asker of askers) asker.reject(error);
    }
  };
  return (key) =>
    new Promise((resolve, reject) => {
      if (waiting.size === 0) setImmediate(() => void readWaiting());
      const askers = waiting.get(key);
      if (askers === undefined) waiting.set(key, [{ resolve, reject }]);
      else askers.push({ resolve, reject });
    });
}
