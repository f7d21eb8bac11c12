// Typed arrays in shared memory (SharedArrayBuffer): the loaded toilets and their indexes are made once,
// on the main thread, and read by every server thread without a copy.

export type SharedArrayType<T> = { new (buffer: SharedArrayBuffer): T; BYTES_PER_ELEMENT: number };

/** A zeroed typed array of `length` elements in shared memory. */
export function sharedArray<T>(Type: SharedArrayType<T>, length: number): T {
  return new Type(new SharedArrayBuffer(length * Type.BYTES_PER_ELEMENT));
}
