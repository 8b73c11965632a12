import { describe, expect, it } from 'vitest'
import { validateRedirect } from '../../../src/lib/redirect'

const allowed = ['pay.example.com', 'localhost:8787', '127.0.0.1:19787']

describe('validateRedirect', () => {
  it.each([
    ['https://pay.example.com/checkout?id=1', 'https://pay.example.com/checkout?id=1'],
    ['https://PAY.example.com/x', 'https://pay.example.com/x'],
    ['https://pay.example.com:443/x', 'https://pay.example.com/x'],
  ])('follows %s', (raw, href) => {
    expect(validateRedirect(raw, allowed)).toEqual({ ok: true, url: href })
  })

  it.each([
    ['javascript:alert(1)', 'scheme'],
    ['\njavascript:alert(1)', 'malformed'],
    [' https://pay.example.com/', 'malformed'],
    ['java\tscript:alert(1)', 'malformed'],
    ['data:text/html,<script>alert(1)</script>', 'scheme'],
    ['//evil.example/x', 'malformed'],
    ['/relative/path', 'malformed'],
    ['https:\\\\evil.example', 'malformed'],
    ['https://pay.example.com\\@evil.example', 'malformed'],
    ['https://pay.example.com.evil.example/', 'host'],
    ['https://allowed.evil/', 'host'],
    ['https://evil@pay.example.com/', 'credentials'],
    ['https://user:pass@pay.example.com/', 'credentials'],
    ['http://pay.example.com/', 'scheme'],
    ['ftp://pay.example.com/', 'scheme'],
    ['https://pаy.example.com/', 'host'], // Cyrillic "а": punycode look-alike
    ['https://xn--py-8kc.example.com/', 'host'],
    ['https://pay.example.com./', 'host'],
    ['', 'malformed'],
  ])('refuses %j (%s)', (raw, problem) => {
    expect(validateRedirect(raw, allowed)).toEqual({ ok: false, problem })
  })

  it('allows http only on loopback hosts, and only in the sandbox', () => {
    expect(validateRedirect('http://localhost:8787/card-page?id=1', allowed, true).ok).toBe(true)
    expect(validateRedirect('http://localhost:8787/card-page?id=1', allowed, false)).toEqual({ ok: false, problem: 'scheme' })
    expect(validateRedirect('http://pay.example.com/', allowed, true)).toEqual({ ok: false, problem: 'scheme' })
  })

  it('compares the port when the allowlist entry names one', () => {
    expect(validateRedirect('http://127.0.0.1:19787/x', allowed, true).ok).toBe(true)
    expect(validateRedirect('http://127.0.0.1:19788/x', allowed, true)).toEqual({ ok: false, problem: 'host' })
  })

  it('refuses everything when the allowlist is empty', () => {
    expect(validateRedirect('https://pay.example.com/', [])).toEqual({ ok: false, problem: 'host' })
  })
})
