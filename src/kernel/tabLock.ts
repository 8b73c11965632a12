// One tab at a time does a flow's work on one transfer (sending, following its status): the
// others say it is in progress elsewhere and take over when that tab goes away. Web Locks; where
// the browser has none, every tab works on its own (the shared rate limiter still binds them).

export type LockState = 'held' | 'elsewhere'

/** Holds `name` while the returned function is not called; reports whether this tab holds it. */
export function holdTabLock(name: string, onChange: (state: LockState) => void): () => void {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks
  if (!locks) {
    onChange('held')
    return () => {}
  }
  let release = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  let cancelled = false
  const hold = async () => {
    if (cancelled) return
    onChange('held')
    await released
  }
  locks
    .request(name, { ifAvailable: true }, async (lock) => (lock ? hold() : 'busy'))
    .then((result) => {
      if (result !== 'busy' || cancelled) return
      onChange('elsewhere')
      return locks.request(name, hold)
    })
    .catch(() => !cancelled && onChange('held'))
  return () => {
    cancelled = true
    release()
  }
}

/** Runs `work` only if no other tab is doing the same; otherwise resolves to 'elsewhere'. */
export async function exclusive<T>(name: string, work: () => Promise<T>): Promise<T | 'elsewhere'> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks
  if (!locks) return work()
  return locks.request(name, { ifAvailable: true }, (lock) => (lock ? work() : ('elsewhere' as const)))
}
