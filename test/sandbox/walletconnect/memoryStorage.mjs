// The key-value storage a WalletConnect client keeps its keys, pairings and sessions in, held in
// memory and given explicitly: core's default in Node is a fresh in-memory store per client
// (unstorage), so a second client could not restore from the first's. Values are copied in and out
// (structuredClone: the records hold BigInt ids), so two clients given one storage share no objects.
export function memoryStorage() {
  const items = new Map()
  return {
    getKeys: async () => [...items.keys()],
    getEntries: async () => [...items].map(([key, value]) => [key, structuredClone(value)]),
    getItem: async (key) => (items.has(key) ? structuredClone(items.get(key)) : undefined),
    setItem: async (key, value) => void items.set(key, structuredClone(value)),
    removeItem: async (key) => void items.delete(key),
  }
}
