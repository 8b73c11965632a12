import type { AnchorHTMLAttributes, ComponentChildren } from 'preact'

type Props = AnchorHTMLAttributes<HTMLAnchorElement> & { href: string; children: ComponentChildren }

/**
 * A link that goes somewhere but looks like a button: it answers Space as a button does (a plain
 * link answers only Enter, and Space would scroll the page instead).
 */
export function ButtonLink({ children, onKeyDown, ...props }: Props) {
  return (
    <a
      {...props}
      onKeyDown={(e) => {
        onKeyDown?.(e)
        if (e.key !== ' ' || e.defaultPrevented) return
        e.preventDefault()
        if (!e.repeat) e.currentTarget.click()
      }}
    >
      {children}
    </a>
  )
}
