/** A form-encoded value as the processor's SDK sends it: `a[b][0]=x` nests, numeric keys make arrays. */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };

/** Parses `application/x-www-form-urlencoded` with the SDK's bracket notation into nested objects and arrays. */
export function parseForm(body: string): Record<string, FormValue> {
  const root: Record<string, FormValue> = {};
  for (const pair of body.split('&')) {
    if (!pair) continue;
    const [rawKey, rawValue = ''] = pair.split('=');
    const key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
    const value = decodeURIComponent(rawValue.replace(/\+/g, ' '));
    const path = key.split(/\[|\]\[|\]/).filter((part, i) => i === 0 || part !== '');
    assign(root, path, value);
  }
  return arraysFromNumericKeys(root) as Record<string, FormValue>;
}

function assign(target: Record<string, FormValue>, path: string[], value: string): void {
  let node = target;
  for (const [i, part] of path.entries()) {
    if (i === path.length - 1) {
      node[part] = value;
      return;
    }
    const next = node[part];
    if (typeof next !== 'object' || Array.isArray(next)) node[part] = {};
    node = node[part] as Record<string, FormValue>;
  }
}

function arraysFromNumericKeys(value: FormValue): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const converted = Object.fromEntries(keys.map((key) => [key, arraysFromNumericKeys(value[key])]));
  if (keys.length > 0 && keys.every((key) => /^\d+$/.test(key))) {
    return keys.sort((a, b) => Number(a) - Number(b)).map((key) => converted[key]);
  }
  return converted;
}
