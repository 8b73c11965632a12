// @vitest-environment happy-dom
// The flow kernel's hook: events through the pure transition, effects run on each new state (and
// the first), observe sees every change, and unmounting disposes the effects.
import { act, cleanup, render } from '@testing-library/preact'
import { render as preactRender } from 'preact'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { useFlowMachine } from '../../../src/kernel/useFlowMachine'

afterEach(cleanup)

type S = { tag: 'idle' | 'busy' | 'done'; n: number }
type E = { type: 'GO' } | { type: 'NOOP' } | { type: 'FINISH' }

const transition = (s: S, e: E): S => (e.type === 'GO' ? { tag: 'busy', n: s.n + 1 } : e.type === 'FINISH' ? { tag: 'done', n: s.n } : s)

function setup() {
  const run = vi.fn<(s: S) => void>()
  const dispose = vi.fn()
  const observe = vi.fn<(prev: S, next: S) => void>()
  const created = vi.fn()
  let send: (e: E) => void = () => {}
  let effectsDispatch: (e: E) => void = () => {}
  function Flow({ label }: { label: string }) {
    const [state, dispatch] = useFlowMachine<S, E>(() => {
      created()
      return {
        initial: { tag: 'idle', n: 0 },
        transition,
        effects: (d) => {
          effectsDispatch = d
          return { run, dispose }
        },
        observe,
      }
    }, [])
    send = dispatch
    return <p>{`${label}:${state.tag}:${state.n}`}</p>
  }
  const view = render(<Flow label="a" />)
  return { view, run, dispose, observe, created, send: (e: E) => act(() => send(e)), fromEffects: (e: E) => act(() => effectsDispatch(e)), Flow }
}

describe('useFlowMachine', () => {
  it('runs the effects on the first state and tells observe it started', () => {
    const t = setup()
    expect(t.run).toHaveBeenCalledWith({ tag: 'idle', n: 0 })
    expect(t.observe).toHaveBeenCalledWith({ tag: 'start' }, { tag: 'idle', n: 0 })
    expect(t.view.container.textContent).toBe('a:idle:0')
  })

  it('an event goes through the transition, renders, is observed and runs the effects', async () => {
    const t = setup()
    await t.send({ type: 'GO' })
    expect(t.view.container.textContent).toBe('a:busy:1')
    expect(t.observe).toHaveBeenLastCalledWith({ tag: 'idle', n: 0 }, { tag: 'busy', n: 1 })
    expect(t.run).toHaveBeenLastCalledWith({ tag: 'busy', n: 1 })
  })

  it('an event that changes nothing neither renders, observes nor runs effects', async () => {
    const t = setup()
    const runs = t.run.mock.calls.length
    const observed = t.observe.mock.calls.length
    await t.send({ type: 'NOOP' })
    expect(t.run).toHaveBeenCalledTimes(runs)
    expect(t.observe).toHaveBeenCalledTimes(observed)
  })

  it('the effects dispatch into the same machine', async () => {
    const t = setup()
    await t.fromEffects({ type: 'FINISH' })
    expect(t.view.container.textContent).toBe('a:done:0')
  })

  it('re-rendering keeps the machine; unmounting disposes the effects', async () => {
    const t = setup()
    t.view.rerender(<t.Flow label="b" />)
    expect(t.created).toHaveBeenCalledTimes(1)
    expect(t.view.container.textContent).toBe('b:idle:0')
    expect(t.dispose).not.toHaveBeenCalled()
    await act(() => {
      t.view.unmount()
    })
    expect(t.dispose).toHaveBeenCalledTimes(1)
  })

  it('the widget unmounted (render(null) outside act): the effects are disposed at once, before any timer or frame', () => {
    // Preact 11 runs a useEffect cleanup after paint, up to 35 ms after the unmount: a status or
    // chain poll due in that time would still go out from a widget that is gone.
    const t = setup()
    preactRender(null, t.view.container)
    expect(t.view.container.textContent).toBe('')
    expect(t.dispose).toHaveBeenCalledTimes(1)
  })
})
