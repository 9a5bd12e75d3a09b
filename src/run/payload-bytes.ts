// One serialization per distinct payload, shared by every hook that receives it: ten hooks on a 50 MB event
// hold one 50 MB buffer, not ten strings. The chain replaces the payload object when a hook rewrites it, so an
// object's bytes never go stale.

const cache = new WeakMap<object, Buffer>();

/** The payload as the UTF-8 JSON bytes written to a hook's stdin; the same Buffer for the same object. */
export function payloadBytes(payload: object): Buffer {
  let bytes = cache.get(payload);
  if (bytes === undefined) {
    bytes = Buffer.from(JSON.stringify(payload), 'utf8');
    cache.set(payload, bytes);
  }
  return bytes;
}
