// The copy button's strings in English: they come with the button (components/CopyField.tsx), not
// with every flow's first load.
export const enCopy = {
  'copy.copy': 'Copy',
  'copy.copiedLabel': '{label} copied',
  'copy.label': 'Copy {label}',
  'copy.failed': 'Could not copy; select the text and copy it yourself.',
} as const
