import { AppError } from '@gatehouse/platform';

/** Deeper JSON than this answers 400: no request of the API nests past a handful of levels. */
export const MAX_JSON_DEPTH = 32;
/** More object keys than this in one body answers 400 (a 1 MiB processor event holds a few hundred). */
export const MAX_JSON_KEYS = 10_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Refuses JSON text nested too deep or with too many keys, in one pass over the text before it is
 * parsed, so no later step (validation, transformation) recurses through a hostile body.
 */
export function checkJsonShape(text: string): void {
  let depth = 0;
  let keys = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    switch (c) {
      case QUOTE:
        inString = true;
        break;
      case 0x7b: // {
      case 0x5b: // [
        if (++depth > MAX_JSON_DEPTH) throw new AppError('validation_failed', `JSON bodies may nest at most ${MAX_JSON_DEPTH} levels.`);
        break;
      case 0x7d: // }
      case 0x5d: // ]
        depth--;
        break;
      case 0x3a: // : outside a string separates a key from its value
        if (++keys > MAX_JSON_KEYS) throw new AppError('validation_failed', `JSON bodies may hold at most ${MAX_JSON_KEYS} keys.`);
        break;
    }
  }
}

/** A NUL or a UTF-16 surrogate without its pair: text no column, log or header can hold. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && !LONE_SURROGATE.test(text);
}

/**
 * 400 `validation_failed` naming the first field (of a parsed body, query or path) whose text,
 * key or value, holds a NUL or a lone surrogate. Iterative: the depth is bounded already, but
 * nothing here should depend on it.
 */
export function refuseUnstorableText(value: unknown, root: string): void {
  const stack: Array<[unknown, string]> = [[value, root]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [current, field] = next;
    if (typeof current === 'string') {
      if (!isStorableText(current)) throw AppError.invalid(field, 'must not contain NUL characters or unpaired surrogates');
    } else if (Array.isArray(current)) {
      current.forEach((item, i) => stack.push([item, `${field}[${i}]`]));
    } else if (current !== null && typeof current === 'object') {
      for (const [key, item] of Object.entries(current)) {
        const name = field ? `${field}.${key}` : key;
        if (!isStorableText(key)) throw AppError.invalid(field || 'body', 'keys must not contain NUL characters or unpaired surrogates');
        stack.push([item, name]);
      }
    }
  }
}
