// A partner's brand colour, kept legible in both schemes (WCAG AA, 4.5:1): the same hue, darkened
// for the light scheme or lightened for the dark one until it reads as text on every surface it
// appears on and carries the button label colour of that scheme.

type Rgb = [number, number, number]

/** The surfaces the accent is drawn on or under, and its label colour, per scheme (styles.css). */
export const SURFACES = {
  light: ['#ffffff', '#eff4ff', '#fffaeb', '#fef3f2'],
  dark: ['#111418', '#172338', '#33270c', '#3b1714', '#0b1220'],
} as const

const AA = 4.5

function rgb(hex: string): Rgb {
  const h = hex.slice(1)
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h
  return [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16)) as Rgb
}

const hex = (c: Rgb) => `#${c.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`

function luminance([r, g, b]: Rgb) {
  const lin = (v: number) => {
    const s = v / 255
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
}

export function contrast(a: string, b: string) {
  const [x, y] = [luminance(rgb(a)), luminance(rgb(b))].sort((p, q) => q - p)
  return (x + 0.05) / (y + 0.05)
}

/** `colour` mixed toward black (light scheme) or white (dark) just enough to reach AA on every surface. */
export function legibleAccent(colour: string, scheme: keyof typeof SURFACES): string {
  const base = rgb(colour)
  const target = scheme === 'light' ? 0 : 255
  for (let step = 0; step <= 20; step++) {
    const mixed = hex(base.map((v) => v + ((target - v) * step) / 20) as Rgb)
    if (SURFACES[scheme].every((surface) => contrast(mixed, surface) >= AA)) return mixed
  }
  return scheme === 'light' ? '#000000' : '#ffffff'
}
