// The header's total of this tab's payout (steps.ts), kept in sessionStorage so a reload never changes it.
import { flowKey } from '../../storage/storedCheck'
import type { PayoutName } from './persisted'

/** The header's total of this tab's payout (steps.ts), in sessionStorage: a reload never changes it. */
export function stepsStore(session: Storage | undefined, name: PayoutName = 'payout') {
  const key = flowKey(`${name}-steps`)
  return {
    get(): unknown {
      try {
        return JSON.parse(session?.getItem(key) ?? 'null')
      } catch {
        return undefined
      }
    },
    put(total: number) {
      try {
        session?.setItem(key, String(total))
      } catch {
        // without storage a reload decides the total again from where it resumes
      }
    },
  }
}
