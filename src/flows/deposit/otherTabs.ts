// Another tab of this origin sent the deposit: this one follows it too, never sends a second.
import { whenChecked } from '../../storage/storedCheck'
import type { DepositContext } from './context'

/** A deposit sent from another tab of this origin: followed here too. */
export function adoptFromOtherTabs(ctx: DepositContext): () => void {
  let live = true
  // One read waits at a time (it reads the record as it is then), and none after dispose.
  let cancel = () => {}
  const onStorage = (event: StorageEvent) => {
    if (event.key !== ctx.store.key || !event.newValue) return
    cancel()
    cancel = whenChecked(
      () => {
        const tracking = live ? ctx.store.load() : undefined
        if (tracking) ctx.dispatch({ type: 'ADOPT', tracking })
      },
      ctx.store.ready,
      ctx.store.arrived,
    )
  }
  ctx.target.addEventListener('storage', onStorage)
  return () => {
    live = false
    cancel()
    ctx.target.removeEventListener('storage', onStorage)
  }
}
