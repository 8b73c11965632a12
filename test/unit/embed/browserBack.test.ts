// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { followBrowserBack } from '../../../src/embed/browserBack'

let stop = () => {}
afterEach(() => {
  stop()
  document.body.innerHTML = ''
})

function widgetWithBack() {
  const root = document.createElement('div')
  const back = document.createElement('button')
  back.dataset.back = ''
  const pressed = vi.fn()
  back.addEventListener('click', pressed)
  root.append(back)
  document.body.append(root)
  stop = followBrowserBack(root)
  return pressed
}

// What the browser does: the entry under ours is shown again (its state is not ours), popstate fires.
const popTo = (state: unknown) => window.dispatchEvent(new PopStateEvent('popstate', { state }))

describe('the browser Back as the widget Back', () => {
  it("the browser's Back off our entry presses the widget's Back", () => {
    const pressed = widgetWithBack()
    expect((history.state as Record<string, unknown>)?.stablecoinWidgetBack).toBe(true)
    popTo(null)
    expect(pressed).toHaveBeenCalledTimes(1)
  })

  it('a link to a fragment of the page (an in-page anchor, markup a page carries) presses nothing', () => {
    const pressed = widgetWithBack()
    // Following <a href="#reviews"> adds an entry with no state and fires popstate: not a Back.
    history.pushState(null, '', '#reviews')
    popTo(null)
    expect(pressed).not.toHaveBeenCalled()
  })
})
