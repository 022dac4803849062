/** Polls until check() is true; throws with `what` after timeoutMs (a bound, not a speed claim). */
export async function waitUntil(what: string, check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting until ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
