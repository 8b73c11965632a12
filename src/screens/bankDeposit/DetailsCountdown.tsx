import { useEffect, useState } from 'preact/hooks'
import { bt } from './text'

/** "These details are valid for 59:42" (hours: "until 18:30"): quiet, not a live region. */
export function DetailsCountdown({ expiresAt, locale }: { expiresAt: string; locale: string }) {
  const end = Date.parse(expiresAt)
  const [now, setNow] = useState(Date.now())
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 1_000)
    return () => clearInterval(id)
  }, [expiresAt])
  const left = Math.max(0, Math.ceil((end - now) / 1_000))
  if (left === 0) return <p class="countdown muted">{bt('bankDeposit.validEnded')}</p>
  if (left >= 3_600) {
    const time = new Intl.DateTimeFormat(locale, { dateStyle: left >= 86_400 ? 'medium' : undefined, timeStyle: 'short' }).format(end)
    return <p class="countdown muted">{bt('bankDeposit.validUntil', { time })}</p>
  }
  const time = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`
  return <p class="countdown muted">{bt('bankDeposit.validFor', { time })}</p>
}
