import { describe, expect, it, vi } from 'vitest'
import { parseOptions } from '../../../src/config/config'
import { createServices } from '../../../src/services'

describe('the error event', () => {
  it('carries the words the buyer read, with the service’s detail filled in, and keeps code and detail', () => {
    const parsed = parseOptions({ apiBase: 'https://api.partner.example' })
    if (!parsed.ok) throw new Error(parsed.problem)
    const emit = vi.fn()
    const services = createServices(parsed.config, emit)
    services.emit('error', { flow: 'card', code: 'invalid_request', message: 'error.invalid', detail: 'amount must be positive' })
    services.emit('error', { code: 'bad_option', message: 'theme: invalid option' })
    expect(emit.mock.calls).toEqual([
      ['error', { flow: 'card', code: 'invalid_request', message: 'The service did not accept this: amount must be positive', detail: 'amount must be positive' }],
      ['error', { code: 'bad_option', message: 'theme: invalid option' }],
    ])
  })
})
