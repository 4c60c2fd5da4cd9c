/**
 * Built-in masks, by name: the pattern and the placeholder that replaces each match. Apart from
 * volatile.ts (and its JSONPath library) so that a help text can name them without loading it.
 */
export const NAMED_MASKS: Readonly<Record<string, { readonly pattern: RegExp; readonly placeholder: string }>> = {
  'iso-time': {
    pattern: /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g,
    placeholder: '<iso-time>',
  },
  uuid: {
    pattern: /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi,
    placeholder: '<uuid>',
  },
};
