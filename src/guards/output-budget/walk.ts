// Maps every string inside a JSON value (objects and arrays keep their shape), copy-on-write, with an
// explicit stack: output nested 100,000 levels deep is walked like any other.

/** Every string leaf of `root`, in document order (object values in key order, then array items). */
export function stringLeaves(root: unknown): string[] {
  const out: string[] = [];
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === 'string') out.push(node);
    else if (Array.isArray(node)) for (let i = node.length - 1; i >= 0; i--) stack.push(node[i]);
    else if (node !== null && typeof node === 'object') {
      const values = Object.values(node as Record<string, unknown>);
      for (let i = values.length - 1; i >= 0; i--) stack.push(values[i]);
    }
  }
  return out;
}

interface Frame {
  node: object;
  keys: string[];
  index: number;
  copy: Record<string, unknown> | unknown[] | undefined;
  parent: Frame | undefined;
  key: string;
}

/**
 * `root` with string leaf number i (in `stringLeaves` order) replaced by `replace(leaf, i)`; the same
 * reference back when nothing changed, and only the objects on a changed path copied.
 */
export function mapLeaves(root: unknown, replace: (leaf: string, index: number) => string): unknown {
  let leaf = 0;
  if (typeof root === 'string') return replace(root, leaf);
  if (root === null || typeof root !== 'object') return root;
  const open = (node: object, parent: Frame | undefined, key: string): Frame => ({ node, keys: Object.keys(node), index: 0, copy: undefined, parent, key });
  const set = (frame: Frame, key: string, value: unknown): void => {
    if (frame.copy === undefined) frame.copy = Array.isArray(frame.node) ? [...frame.node] : copyObject(frame.node as Record<string, unknown>);
    if (Array.isArray(frame.copy)) frame.copy[Number(key)] = value;
    // defineProperty, not assignment: a key called __proto__ stays an own key.
    else Object.defineProperty(frame.copy, key, { value, writable: true, enumerable: true, configurable: true });
  };
  const top = open(root, undefined, '');
  let frame: Frame | undefined = top;
  while (frame !== undefined) {
    if (frame.index >= frame.keys.length) {
      const done: Frame = frame;
      frame = done.parent;
      if (frame !== undefined && done.copy !== undefined) set(frame, done.key, done.copy);
      continue;
    }
    const key = frame.keys[frame.index++]!;
    const value = (frame.node as Record<string, unknown>)[key];
    if (typeof value === 'string') {
      const next = replace(value, leaf++);
      if (next !== value) set(frame, key, next);
    } else if (value !== null && typeof value === 'object') frame = open(value, frame, key);
  }
  return top.copy ?? root;
}

function copyObject(source: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(source)) Object.defineProperty(copy, key, { value: source[key], writable: true, enumerable: true, configurable: true });
  return copy;
}
