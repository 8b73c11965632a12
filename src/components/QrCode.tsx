import { useMemo } from 'preact/hooks'
import { encode } from 'uqr'

/** The standard's quiet zone: four modules of light around the code. */
const QUIET = 4

/**
 * A string (a PIX payload) as a QR code: an SVG of Preact elements, dark on light whatever the
 * theme (banking apps read a light-on-dark code badly). Nothing is drawn for a payload too long
 * for a QR code; the same text is always offered to copy beside it.
 */
export function QrCode({ value, label, size = 200 }: { value: string; label: string; size?: number }) {
  const path = useMemo(() => modulesPath(value), [value])
  if (!path) return null
  const side = path.size + 2 * QUIET
  return (
    <svg
      class="qr"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${side} ${side}`}
      width={size}
      height={size}
      shape-rendering="crispEdges"
      xmlns="http://www.w3.org/2000/svg"
    >
      <rect width={side} height={side} fill="#fff" />
      <path d={path.d} fill="#000" />
    </svg>
  )
}

/** One path: a rectangle per run of dark modules in a row, a few kilobytes even for a long payload. */
export function modulesPath(value: string): { size: number; d: string } | undefined {
  let data: boolean[][]
  try {
    // Medium error correction: a screen's glare and a phone's focus are the usual damage.
    data = encode(value, { ecc: 'M', border: 0 }).data
  } catch {
    return undefined
  }
  let d = ''
  data.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) {
      if (!row[x]) continue
      const start = x
      while (row[x + 1]) x++
      const run = x - start + 1
      d += `M${start + QUIET} ${y + QUIET}h${run}v1h-${run}z`
    }
  })
  return { size: data.length, d }
}
