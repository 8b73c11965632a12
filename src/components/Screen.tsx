import type { ComponentChildren } from 'preact'
import { useEffect, useRef } from 'preact/hooks'

let firstScreen = true

/** One screen, one heading; focus moves to the heading when a new screen appears. */
export function Screen({ title, children }: { title: string; children: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    if (firstScreen) {
      firstScreen = false
      return
    }
    heading.current?.focus()
  }, [title])
  return (
    <section class="screen" aria-labelledby="screen-heading">
      <h1 id="screen-heading" tabIndex={-1} ref={heading}>
        {title}
      </h1>
      {children}
    </section>
  )
}
