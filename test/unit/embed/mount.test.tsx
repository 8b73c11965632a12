// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { mountWidget } from '../../../src/embed/mount'

const base = { apiBase: 'https://api.partner.example' }
const events: Array<{ name: string; payload: Record<string, unknown> }> = []
const emit = (name: string, payload: unknown) => void events.push({ name, payload: payload as Record<string, unknown> })

afterEach(() => {
  events.length = 0
  vi.restoreAllMocks()
  document.body.innerHTML = ''
})

function host() {
  const el = document.createElement('div')
  document.body.append(el)
  return el
}

describe('mountWidget on a partner page', () => {
  it('names a misspelt option in a console error and goes on; the element’s own attributes are not options', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const widget = mountWidget(host(), { ...base, amuont: '5', 'aria-label': 'Pay', title: 'Pay' } as never, { shadow: true, emit })
    expect(error.mock.calls.map((c) => c[0])).toEqual(['[stablecoin-widget] amuont: not an option; ignored'])
    expect(events.filter((e) => e.name === 'error')).toEqual([])
    widget.unmount()
  })

  it('a bad option is a console error naming it, an error event, and a readable message in place of the widget', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const el = host()
    const widget = mountWidget(el, { ...base, locale: 'not a locale!!' }, { shadow: true, emit })
    expect(error.mock.calls[0][0]).toMatch(/^\[stablecoin-widget\] locale: must be a language tag/)
    expect(events).toContainEqual({ name: 'error', payload: { code: 'bad_option', message: expect.stringMatching(/^locale/) } })
    expect(el.shadowRoot?.textContent).toContain('locale')
    widget.unmount()
  })

  it('puts the partner reference on every event it sends', async () => {
    const widget = mountWidget(host(), { ...base, reference: 'order-42' }, { shadow: true, closable: true, emit })
    await vi.waitFor(() => expect(events.some((e) => e.name === 'ready')).toBe(true))
    const close = [...(document.querySelector('div')?.shadowRoot?.querySelectorAll('button') ?? [])].find((b) =>
      /close/i.test(b.getAttribute('aria-label') ?? b.textContent ?? ''),
    )
    close?.click()
    expect(close).toBeDefined()
    expect(events.map((e) => e.name)).toContain('close')
    expect(events.filter((e) => e.payload.reference !== 'order-42')).toEqual([])
    widget.unmount()
  })
})
