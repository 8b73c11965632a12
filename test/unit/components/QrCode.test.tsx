// @vitest-environment happy-dom
// Issue 17: a PIX payload is drawn as a QR code in the widget: an SVG of Preact elements with an
// accessible name, module for module what the encoder produced.
import { cleanup, render, screen } from '@testing-library/preact'
import { encode } from 'uqr'
import { afterEach, describe, expect, it } from 'vitest'
import { modulesPath, QrCode } from '../../../src/components/QrCode'

afterEach(cleanup)

const PIX =
  '00020101021226580014br.gov.bcb.pix0136deposits+7@sandbox.example52040000530398654061000.005802BR5913Sandbox Ltda6009SAO PAULO62140510SBXABC12363041D3F'

/** The dark modules the path draws, back as a matrix. */
function matrixOf(d: string, size: number, quiet = 4): boolean[][] {
  const m = Array.from({ length: size }, () => Array<boolean>(size).fill(false))
  for (const [, x, y, run] of d.matchAll(/M(\d+) (\d+)h(\d+)v1h-\3z/g)) {
    for (let i = 0; i < Number(run); i++) m[Number(y) - quiet]![Number(x) - quiet + i] = true
  }
  return m
}

describe('QrCode', () => {
  it('renders an svg image with its accessible name', () => {
    render(<QrCode value={PIX} label="PIX QR code to pay 1,000 BRL" />)
    const img = screen.getByRole('img', { name: 'PIX QR code to pay 1,000 BRL' })
    expect(img.tagName.toLowerCase()).toBe('svg')
    expect(img.querySelector('path')?.getAttribute('d')).toMatch(/^M\d+ \d+h\d+v1h-\d+z/)
    // Dark on light whatever the theme, with the quiet zone inside the view box.
    expect(img.querySelector('rect')?.getAttribute('fill')).toBe('#fff')
    const size = encode(PIX, { ecc: 'M', border: 0 }).size
    expect(img.getAttribute('viewBox')).toBe(`0 0 ${size + 8} ${size + 8}`)
  })

  it('draws exactly the modules the encoder produced', () => {
    const { data, size } = encode(PIX, { ecc: 'M', border: 0 })
    const path = modulesPath(PIX)!
    expect(path.size).toBe(size)
    expect(matrixOf(path.d, size)).toEqual(data)
  })

  it('takes server text as data only: markup in the payload is never markup', () => {
    const hostile = '<svg onload="alert(1)"><script>alert(1)</script>'
    const { container } = render(<QrCode value={hostile} label={hostile} />)
    expect(container.querySelectorAll('script').length).toBe(0)
    expect(container.querySelectorAll('svg').length).toBe(1)
    expect(screen.getByRole('img').getAttribute('aria-label')).toBe(hostile)
  })

  it('draws nothing for a payload too long for any QR code (the text is there to copy)', () => {
    const { container } = render(<QrCode value={'x'.repeat(5000)} label="too long" />)
    expect(container.innerHTML).toBe('')
  })
})
