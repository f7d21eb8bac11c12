// A guard against hangs for tests that wait on events rather than a clock: the promise, or a failure
// saying what never happened once the guard's time passed. The time only bounds a hang; no test asserts it.

/** `promise`, or a failure after `guardMs` saying what never happened. */
export async function guarded<T>(promise: Promise<T>, never: string, guardMs = 60_000): Promise<T> {
  let guard: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => (guard = setTimeout(() => reject(new Error(never)), guardMs)));
  try {
    return await Promise.race([promise, hung]);
  } finally {
    clearTimeout(guard);
  }
}
