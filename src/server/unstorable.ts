// Text the store cannot keep. Postgres text (PGlite's and a pg server's) refuses a NUL, and both
// drivers write a lone UTF-16 surrogate as U+FFFD, so "x\ud800" would be stored, and found, as
// another id. Both are valid JSON and pass the schemas: the request is refused before anything
// reads the store, naming the field, instead of failing in the store as the kit's own error.

const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** The first field (`a.b.0`), key or value, that holds a NUL or a lone surrogate; undefined when none does. */
export function unstorableField(input: unknown): string | undefined {
  // Iterative: a 16 KiB body can nest thousands deep.
  const pending: Array<[value: unknown, path: string]> = [[input, '']]
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, path] = next
    if (typeof value === 'string') {
      if (UNSTORABLE.test(value)) return path || 'body'
    } else if (typeof value === 'object' && value !== null) {
      const entries = Object.entries(value)
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, inner] = entries[i]
        const at = path ? `${path}.${key}` : key
        if (UNSTORABLE.test(key)) return at
        pending.push([inner, at])
      }
    }
  }
  return undefined
}

export const unstorableProblem = (field: string) => `${field}: must not contain a NUL character or a lone surrogate`
