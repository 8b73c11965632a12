import { useEffect, useState } from 'preact/hooks'
import { t } from '../i18n/i18n'

/** "Price held for 1:42": quiet, not a live region; the flow re-quotes when it runs out. */
export function Countdown({ expiresAt }: { expiresAt: string }) {
  const end = Date.parse(expiresAt)
  const [now, setNow] = useState(Date.now())
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 1_000)
    return () => clearInterval(id)
  }, [expiresAt])
  const left = Math.max(0, Math.ceil((end - now) / 1_000))
  // "1:42", and past an hour "1:59:59" (a payout's price holds for hours; "119:59" reads as a riddle).
  const two = (n: number) => String(n).padStart(2, '0')
  const time = left >= 3600 ? `${Math.floor(left / 3600)}:${two(Math.floor(left / 60) % 60)}:${two(left % 60)}` : `${Math.floor(left / 60)}:${two(left % 60)}`
  return <p class="countdown muted">{left > 0 ? t('quote.held', { time }) : t('quote.refreshing')}</p>
}
