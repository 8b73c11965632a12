import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { SURFACES, contrast, legibleAccent } from '../../../src/theme/accent'

const brands = ['#ffd400', '#ffffff', '#000000', '#1d4ed8', '#0a7d4f', '#f0f', '#8db4ff', '#ff5a1f', '#777777']

describe('legibleAccent', () => {
  it('knows the WCAG contrast of black on white and of a colour on itself', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5)
    expect(contrast('#1d4ed8', '#1d4ed8')).toBe(1)
    // #767676 on white is the usual 4.54:1 example
    expect(contrast('#767676', '#fff')).toBeCloseTo(4.54, 2)
  })

  for (const scheme of ['light', 'dark'] as const) {
    it.each(brands)(`%s in the ${scheme} scheme reaches 4.5:1 on every surface and against its label`, (brand) => {
      const accent = legibleAccent(brand, scheme)
      expect(accent).toMatch(/^#[0-9a-f]{6}$/)
      for (const surface of SURFACES[scheme]) expect(contrast(accent, surface)).toBeGreaterThanOrEqual(4.5)
    })
  }

  it('leaves a colour that already reads well as it is, and keeps the hue of one that does not', () => {
    expect(legibleAccent('#1d4ed8', 'light')).toBe('#1d4ed8')
    expect(legibleAccent('#8db4ff', 'dark')).toBe('#8db4ff')
    const yellow = legibleAccent('#ffd400', 'light')
    expect(yellow).not.toBe('#ffd400')
    const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(yellow.slice(i, i + 2), 16))
    expect(r).toBeGreaterThan(b) // still a yellow-brown, not grey or black
    expect(g).toBeGreaterThan(b)
  })
})

it('knows the surfaces styles.css draws the accent on, in both schemes', () => {
  const css = readFileSync(new URL('../../../src/styles.css', import.meta.url), 'utf8')
  const pair = (name: string) => css.match(new RegExp(`--${name}: light-dark\\((#[0-9a-f]{6}), (#[0-9a-f]{6})\\)`))!.slice(1)
  const names = ['bg', 'info-bg', 'warn-bg', 'error-bg', 'accent-fg']
  const light = names.map((n) => pair(n)[0])
  const dark = names.map((n) => pair(n)[1])
  expect([...SURFACES.light].sort()).toEqual([...new Set(light)].sort())
  expect([...SURFACES.dark].sort()).toEqual([...new Set(dark)].sort())
})
