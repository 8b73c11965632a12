// The part of the page API that runs in the page, in every engine alike: finds elements the way
// Playwright's locators do (by role and accessible name, by label, by text, by CSS, through open
// shadow roots) and reads what the assertions need. It is sent to the page as source text
// (`INPAGE`), so it must stay self-contained: no imports, no closures over this module.

/** One step of a locator: each step searches inside what the previous one found. */
export type Match = { text: string; exact?: boolean } | { regex: string; flags: string }
export type Step = { css: string } | { role: string; name?: Match; level?: number } | { label: Match } | { text: Match } | { hasText: Match } | { nth: number }

export type Seen = { visible: boolean; enabled: boolean; text: string; value: string | null; attrs: Record<string, string> }

/* eslint-disable @typescript-eslint/no-explicit-any */
// biome-ignore lint: runs in the page
function inpage(op: 'inspect' | 'element' | 'prepareFill' | 'select', steps: Step[], arg?: unknown): any {
  const norm = (s: string | null | undefined) => (s ?? '').replace(/[\s\u00a0]+/g, ' ').trim()
  const matches = (value: string, m: Match) => {
    const v = norm(value)
    if ('regex' in m) return new RegExp(m.regex, m.flags).test(v)
    return m.exact ? v === norm(m.text) : v.toLowerCase().includes(norm(m.text).toLowerCase())
  }
  const parentOf = (el: Element): Element | null => el.parentElement ?? ((el.getRootNode() as ShadowRoot).host || null)
  /** Every element under `root` in tree order, the content of open shadow roots included. */
  const deep = (root: Document | Element | ShadowRoot): Element[] => {
    const out: Element[] = []
    const walk = (node: Document | Element | ShadowRoot) => {
      for (const el of Array.from(node.children)) {
        out.push(el)
        if (el.shadowRoot) walk(el.shadowRoot)
        walk(el)
      }
    }
    if (root instanceof Element && root.shadowRoot) walk(root.shadowRoot)
    walk(root)
    return out
  }
  const rendered = (el: Element) => {
    const check = (el as Element & { checkVisibility?: (o: object) => boolean }).checkVisibility
    if (check) return check.call(el, { visibilityProperty: true })
    const style = getComputedStyle(el)
    return style.display !== 'none' && style.visibility !== 'hidden'
  }
  const ariaHidden = (el: Element) => {
    for (let e: Element | null = el; e; e = parentOf(e)) if (e.getAttribute('aria-hidden') === 'true') return true
    return false
  }
  const visible = (el: Element) => {
    const r = el.getBoundingClientRect()
    return r.width > 0 && r.height > 0 && rendered(el)
  }
  const SKIP = new Set(['script', 'style', 'template', 'noscript', 'head', 'title', 'meta', 'link'])
  const CONTROLS = new Set(['input', 'select', 'textarea', 'button'])
  /** The text an element gives its name from its content (accname, simplified). */
  const content = (node: Node, inLabel = false): string => {
    if (node.nodeType === 3) return node.textContent ?? ''
    if (!(node instanceof Element) || SKIP.has(node.localName)) return ''
    if (node.getAttribute('aria-hidden') === 'true' || !rendered(node)) return ''
    if (inLabel && CONTROLS.has(node.localName)) return ''
    const label = node.getAttribute('aria-label')
    if (label?.trim()) return label
    if (node.localName === 'img') return node.getAttribute('alt') ?? ''
    if (node.localName === 'input' && ['button', 'submit', 'reset'].includes((node as HTMLInputElement).type)) return (node as HTMLInputElement).value
    let text = ''
    for (const child of Array.from((node as Element).shadowRoot?.childNodes ?? node.childNodes)) text += content(child, inLabel)
    const display = getComputedStyle(node).display
    return display.startsWith('inline') ? text : ` ${text} `
  }
  const byIds = (el: Element, ids: string) =>
    ids
      .split(/\s+/)
      .map((id) => (el.getRootNode() as Document | ShadowRoot).getElementById(id))
      .filter((e): e is HTMLElement => !!e)
      .map((e) => content(e))
      .join(' ')
  const labelsOf = (el: Element): string[] => {
    const out: string[] = []
    const by = el.getAttribute('aria-labelledby')
    if (by) out.push(byIds(el, by))
    const aria = el.getAttribute('aria-label')
    if (aria) out.push(aria)
    for (const l of Array.from((el as HTMLInputElement).labels ?? [])) out.push(content(l, true))
    return out.map(norm).filter(Boolean)
  }
  const roleOf = (el: Element): string | null => {
    const explicit = el.getAttribute('role')?.trim().split(/\s+/)[0]
    if (explicit) return explicit
    const tag = el.localName
    if (/^h[1-6]$/.test(tag)) return 'heading'
    switch (tag) {
      case 'button':
        return 'button'
      case 'a':
      case 'area':
        return el.hasAttribute('href') ? 'link' : null
      case 'input': {
        const type = (el as HTMLInputElement).type
        if (['button', 'submit', 'reset', 'image'].includes(type)) return 'button'
        if (type === 'checkbox' || type === 'radio') return type
        if (type === 'number') return 'spinbutton'
        if (type === 'range') return 'slider'
        if (type === 'hidden') return null
        return el.hasAttribute('list') ? 'combobox' : 'textbox'
      }
      case 'textarea':
        return 'textbox'
      case 'select':
        return (el as HTMLSelectElement).multiple || (el as HTMLSelectElement).size > 1 ? 'listbox' : 'combobox'
      case 'option':
        return 'option'
      case 'table':
        return 'table'
      case 'tr':
        return 'row'
      case 'td':
        return 'cell'
      case 'th':
        return el.getAttribute('scope') === 'row' || (el.parentElement?.querySelector('td') && !el.closest('thead')) ? 'rowheader' : 'columnheader'
      case 'dt':
        return 'term'
      case 'dd':
        return 'definition'
      case 'ul':
      case 'ol':
        return 'list'
      case 'li':
        return 'listitem'
      case 'img':
        return el.getAttribute('alt') === '' ? 'presentation' : 'img'
      case 'output':
        return 'status'
      case 'dialog':
        return 'dialog'
      case 'form':
        return 'form'
      case 'nav':
        return 'navigation'
      case 'main':
        return 'main'
      case 'progress':
        return 'progressbar'
      case 'p':
        return 'paragraph'
      default:
        return null
    }
  }
  const NAME_FROM_CONTENT = new Set([
    'button',
    'link',
    'heading',
    'cell',
    'row',
    'rowheader',
    'columnheader',
    'option',
    'tab',
    'menuitem',
    'checkbox',
    'radio',
    'term',
    'listitem',
    'tooltip',
  ])
  const nameOf = (el: Element, role: string) => {
    const labels = labelsOf(el)
    if (labels.length) return labels.join(' ')
    if (NAME_FROM_CONTENT.has(role)) return norm(content(el))
    return norm(el.getAttribute('title') ?? (el as HTMLInputElement).placeholder ?? '')
  }
  const levelOf = (el: Element) => Number(el.getAttribute('aria-level') ?? (/^h([1-6])$/.exec(el.localName)?.[1] || 2))
  const ownText = (el: Element) => norm(el.localName === 'input' ? (el as HTMLInputElement).value : ((el as HTMLElement).innerText ?? el.textContent))

  let found: Element[] = [document.documentElement]
  for (const step of steps) {
    if ('nth' in step) {
      const one = step.nth < 0 ? found.at(step.nth) : found[step.nth]
      found = one ? [one] : []
      continue
    }
    if ('hasText' in step) {
      found = found.filter((el) => matches(ownText(el), step.hasText))
      continue
    }
    const under = new Set<Element>()
    const pool: Element[] = []
    for (const root of found)
      for (const el of root === document.documentElement ? [root, ...deep(root)] : deep(root)) if (!under.has(el)) under.add(el), pool.push(el)
    if ('css' in step) found = pool.filter((el) => el.matches(step.css))
    else if ('role' in step)
      found = pool.filter((el) => {
        const role = roleOf(el)
        if (role !== step.role || !rendered(el) || ariaHidden(el)) return false
        if (step.level !== undefined && levelOf(el) !== step.level) return false
        return step.name === undefined || matches(nameOf(el, role), step.name)
      })
    else if ('label' in step) found = pool.filter((el) => !ariaHidden(el) && labelsOf(el).some((l) => matches(l, step.label)))
    else {
      // Text: the deepest elements whose text matches (none of their children matches alone).
      const hits = pool.filter((el) => !SKIP.has(el.localName) && matches(ownText(el), step.text))
      const hitSet = new Set(hits)
      found = hits.filter(
        (el) =>
          !Array.from(el.shadowRoot?.children ?? [])
            .concat(Array.from(el.children))
            .some((c) => hitSet.has(c)),
      )
    }
  }

  const seen = (el: Element) => ({
    visible: visible(el),
    enabled: !(el as HTMLButtonElement).disabled && el.getAttribute('aria-disabled') !== 'true',
    text: ownText(el),
    value: 'value' in el && typeof (el as HTMLInputElement).value === 'string' ? (el as HTMLInputElement).value : null,
    attrs: Object.fromEntries(Array.from(el.attributes).map((a) => [a.name, a.value])),
  })
  if (op === 'inspect') return found.map(seen)
  const ready = found.length === 1 && visible(found[0]) && seen(found[0]).enabled
  if (op === 'element') return { count: found.length, ready, el: ready ? found[0] : null }
  const el = found[0] as HTMLInputElement & HTMLSelectElement
  if (!ready) return { count: found.length, ready }
  if (op === 'prepareFill') {
    // Everything in the field is selected, so what is typed next replaces it (as Playwright's fill).
    el.focus()
    try {
      el.select()
    } catch {}
    if (el.value && (el.selectionStart !== 0 || el.selectionEnd !== el.value.length)) {
      el.value = ''
      el.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'deleteContentBackward' }))
    }
    return {
      count: 1,
      ready,
      active: el.getRootNode() instanceof ShadowRoot ? (el.getRootNode() as ShadowRoot).activeElement === el : document.activeElement === el,
    }
  }
  // select: the option whose value or label is `arg`, with the events a buyer's choice fires.
  const option = Array.from(el.options).find((o) => o.value === arg || norm(o.label) === arg)
  if (!option) return { count: 1, ready, error: `no option ${String(arg)}` }
  el.value = option.value
  el.dispatchEvent(new Event('input', { bubbles: true, composed: true }))
  el.dispatchEvent(new Event('change', { bubbles: true }))
  return { count: 1, ready }
}

/** The function's source: the drivers send `(${INPAGE})(op, steps, arg)` to the page. */
export const INPAGE = inpage.toString()
